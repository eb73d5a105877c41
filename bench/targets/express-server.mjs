/**
 * The sandbox behind express 5 + @mswjs/http-middleware (bench/targets/express-app.mjs) instead of
 * the default node:http adapter. Same flags as `sendbox` (parsed by the CLI's own parser).
 * Usage: node bench/targets/express-server.mjs --port N [sendbox flags]
 */
import { parseCli } from '../../dist/src/cli/options.js'
import { sandboxFromSettings } from '../../dist/src/cli/run.js'
import { startExpressServer } from './express-app.mjs'

const settings = parseCli(process.argv.slice(2), {})
const sandbox = await sandboxFromSettings(settings)
const running = await startExpressServer(sandbox, { port: settings.port, host: settings.host })
process.stdout.write(`express variant listening on ${running.url}/v1\n`)
const stop = () => {
  sandbox.dispose()
  void running.close().then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
