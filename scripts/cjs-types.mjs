#!/usr/bin/env node
/**
 * Writes CommonJS twins of the public type entry points (`dist/src/index.d.cts`,
 * `dist/src/server/http-server.d.cts`), which package.json's `exports` name under `require`.
 *
 * Why: the runtime is ESM only (Node ≥ 20.19 `require`s it), but types are resolved per mode. In
 * a CommonJS consumer, `msw/node` resolves to msw's CommonJS declarations while our `.d.ts`
 * (ESM, the package is `"type": "module"`) imports msw's ESM ones: two `HttpHandler` classes, and
 * `setupServer(...sandbox.handlers)` failed with TS2345. A `.d.cts` imports msw the CommonJS way,
 * so both sides name one class. Everything else is the same file, relative imports pointing at
 * the `.cjs` twins where one exists.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entries = ['dist/src/index.d.ts', 'dist/src/server/http-server.d.ts']
const twins = new Set(entries.map((entry) => join(root, entry)))

for (const entry of entries) {
  const source = join(root, entry)
  const text = readFileSync(source, 'utf8').replace(/(from\s+['"])(\.{1,2}\/[^'"]+)\.js(['"])/g, (whole, open, path, close) =>
    twins.has(join(dirname(source), `${path}.d.ts`)) ? `${open}${path}.cjs${close}` : whole,
  )
  writeFileSync(source.replace(/\.d\.ts$/, '.d.cts'), text)
}
