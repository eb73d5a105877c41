#!/usr/bin/env node
/**
 * Writes CommonJS twins of the public type entry points (`dist/src/index.d.cts`,
 * `dist/src/transports/http-server.d.cts`), which package.json's `exports` name under `require`.
 *
 * Why: the runtime is ESM only (Node ≥ 20.19 `require`s it), but types are resolved per mode. In
 * a CommonJS consumer, `msw/node` resolves to msw's CommonJS declarations while our `.d.ts`
 * (ESM, the package is `"type": "module"`) imports msw's ESM ones: two `HttpHandler` classes, and
 * `setupServer(...sandbox.handlers)` failed with TS2345. A `.d.cts` imports msw the CommonJS way,
 * so both sides name one class. Everything else is the same file, relative imports pointing at
 * the `.cjs` twins where one exists.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entries = ['dist/src/index.d.ts', 'dist/src/transports/http-server.d.ts']
const twins = new Set(entries.map((entry) => join(root, entry)))

for (const entry of entries) {
  const source = join(root, entry)
  const text = readFileSync(source, 'utf8').replace(
    /(from\s+['"])(\.{1,2}\/[^'"]+)\.js(['"])/g,
    (whole, open, path, close) =>
      twins.has(join(dirname(source), `${path}.d.ts`)) ? `${open}${path}.cjs${close}` : whole,
  )
  writeFileSync(source.replace(/\.d\.ts$/, '.d.cts'), text)
}

// The matchers' augmentation of jest's `expect` package (for `expect` from @jest/globals): a
// declaration file of its own (src/matchers-expect.d.ts; tsc does not copy .d.ts sources), which
// dist/src/matchers.d.ts references, so importing `sendbox/matchers` brings it along.
const matchersTypes = join(root, 'dist/src/matchers.d.ts')
copyFileSync(join(root, 'src/matchers-expect.d.ts'), join(root, 'dist/src/matchers-expect.d.ts'))
const matchersText = readFileSync(matchersTypes, 'utf8')
const reference = '/// <reference path="./matchers-expect.d.ts" />\n'
if (!matchersText.startsWith(reference)) writeFileSync(matchersTypes, reference + matchersText)
