#!/usr/bin/env node
/**
 * Bundles the CLI entry (bin/sendbox.ts) with esbuild into dist/bin/sendbox.js, over tsc's
 * output of the same file. Loading ~200 ESM files of msw, zod and @msw/data one by one costs
 * most of the start-up; one file (plus lazily loaded chunks) costs a fraction.
 * Run by `npm run build` after tsc. The library entry (dist/src/index.js) stays unbundled.
 */
import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'dist/bin')
rmSync(join(outdir, 'chunks'), { recursive: true, force: true })

await build({
  absWorkingDir: root,
  entryPoints: { sendbox: 'bin/sendbox.ts' },
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Only what the headless server needs goes in the bundle; the terminal UI and the express
  // variant load their packages lazily from node_modules, as before.
  external: ['ink', 'react', 'react/*', 'express', '@mswjs/http-middleware', 'terminal-link', 'html-to-text'],
  // Bundled CommonJS dependencies (tough-cookie, …) call require() for node built-ins.
  banner: { js: "import { createRequire as __sendboxCreateRequire } from 'node:module';\nconst require = __sendboxCreateRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
})
