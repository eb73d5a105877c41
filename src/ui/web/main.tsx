/** @jsxImportSource preact */
/** The web inbox's entry point (bundled by scripts/build-web.mjs into dist/web/app.js). */
import { render } from 'preact'
import { App } from './app/app.js'
import './styles.css'

render(<App />, document.getElementById('app')!)
