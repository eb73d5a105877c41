#!/usr/bin/env node
/**
 * Bundles the `sendbox` command with esbuild, after tsc (`npm run build`). Loading ~200 ESM files
 * of msw, zod and @msw/data one by one was most of the start-up; one file compiled through V8's
 * code cache is a fraction (docs/performance.md has the figures). Writes into dist/bin:
 * - sendbox.cjs: the CLI and everything the headless server needs, one CommonJS file (a classic
 *   script can use V8's code cache on Node 20; an ES module cannot);
 * - sendbox-ui.mjs: the terminal UI, an ES module (ink is ESM-only), loaded lazily;
 * - sendbox.js: the small loader (scripts/cli-loader.mjs), over tsc's output of bin/sendbox.ts.
 * First it builds the web inbox into dist/web (scripts/build-web.mjs).
 * Then runs `sendbox --version` once, which writes the code cache. The library entry
 * (dist/src/index.js) stays unbundled.
 */
import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildWebInbox } from './build-web.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'dist/bin')
const UI_TOKEN = 'sendbox-ui-bundle'
const uiPackages = ['ink', 'react', 'react/*', 'terminal-link']

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
}

// The web inbox (dist/web): the CLI bundle below serves it, so it comes first.
await buildWebInbox(root)

// The terminal UI: an ES module importing ink and react from node_modules, as before.
await build({
  ...common,
  entryPoints: ['src/ui/render.tsx'],
  outfile: join(outdir, 'sendbox-ui.mjs'),
  format: 'esm',
  external: [...uiPackages, 'html-to-text'],
})

// The threaded transport's worker (`sendbox --threads 2`): an ES module of its own, started by
// the CLI from beside the bundle (the CommonJS bundle has no import.meta.url to find it by).
await build({
  ...common,
  entryPoints: ['src/server/threaded-worker.ts'],
  outfile: join(outdir, 'sendbox-http-worker.mjs'),
  format: 'esm',
  // Some bundled CommonJS dependencies call require(); give the ES module one.
  banner: { js: "import { createRequire as __sendboxCreateRequire } from 'node:module'; const require = __sendboxCreateRequire(import.meta.url);" },
})

// The CLI: one CommonJS file. The UI import is kept out and pointed at sendbox-ui.mjs.
const result = await build({
  ...common,
  entryPoints: ['bin/sendbox.ts'],
  outfile: join(outdir, 'sendbox.cjs'),
  format: 'cjs',
  // threaded-server.ts finds its worker by import.meta.url only when unbundled; the CLI passes
  // the worker bundle's URL instead (src/cli/run.ts), so the empty import.meta is never read.
  logOverride: { 'empty-import-meta': 'silent' },
  write: false,
  // Not on the headless path; loaded from node_modules if ever imported. html-to-text is bundled:
  // the capture loads it with a dynamic import, which a script compiled by vm.Script cannot run
  // for an external module (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); esbuild turns the import of
  // a bundled module into a lazy require.
  external: [...uiPackages, 'express', '@mswjs/http-middleware'],
  plugins: [
    {
      name: 'lazy-ui',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/ui\/render\.js$/ }, () => ({ path: UI_TOKEN, external: true }))
      },
    },
    {
      // The web inbox's files are imported when first asked for, through the loader, from dist/web.
      name: 'web-assets',
      setup(b) {
        b.onLoad({ filter: /[\\/]src[\\/]web[\\/]server[\\/]asset-source\.ts$/ }, () => ({
          contents: 'export async function importWebAssets() { return (await globalThis.__sendboxImport("../web/assets.js")).assets }',
          loader: 'js',
        }))
      },
    },
  ],
})
let code = result.outputFiles[0].text.replace(/^#!.*\n/, '')
const uiImport = `import("${UI_TOKEN}")`
if (code.split(uiImport).length !== 2) throw new Error(`expected one ${uiImport} in the CLI bundle`)
code = code.replace(uiImport, 'globalThis.__sendboxImport("./sendbox-ui.mjs")')
// Wrapped as Node wraps a CommonJS module, so the loader compiles the file as it is (one copy of the source).
writeFileSync(join(outdir, 'sendbox.cjs'), `(function (exports, require, module, __filename, __dirname) {${code}\n})`)

copyFileSync(join(root, 'scripts/cli-loader.mjs'), join(outdir, 'sendbox.js'))
chmodSync(join(outdir, 'sendbox.js'), 0o755)
if (!readFileSync(join(outdir, 'sendbox.js'), 'utf8').startsWith('#!/usr/bin/env node\n')) throw new Error('the loader lost its hashbang')
// Leftovers of the previous layout (an ESM bundle split in chunks).
rmSync(join(outdir, 'chunks'), { recursive: true, force: true })

// One short run writes V8's code cache for this bundle, so the first start after a build is warm too.
const env = { ...process.env }
delete env.SENDBOX_NO_COMPILE_CACHE
const warm = spawnSync(process.execPath, [join(outdir, 'sendbox.js'), '--version'], { env, encoding: 'utf8' })
if (warm.status !== 0) throw new Error(`the bundled CLI does not run: ${warm.stderr}`)
