#!/usr/bin/env node
/**
 * Bundles the `sendbox` command with esbuild, after tsc (`npm run build`). Loading ~200 ESM files
 * of msw, zod and @msw/data one by one was most of the start-up; one file compiled through V8's
 * code cache is a fraction (docs/performance.md has the figures). Writes into dist/bin:
 * - sendbox.cjs: the CLI and everything the headless server needs, one CommonJS file (a classic
 *   script can use V8's code cache on Node 20; an ES module cannot);
 * - sendbox-ui.mjs: the terminal UI, an ES module (ink is ESM-only), loaded lazily;
 * - sendbox.js: the small loader (scripts/cli-loader.mjs), over tsc's output of bin/sendbox.ts.
 * First it builds the web inbox into dist/web (scripts/build-web.mjs), and the library entries
 * (`sendbox`, `sendbox/matchers`, `sendbox/server`) into dist/lib (see buildLibrary below).
 * Last it starts the server once and sends it a first request, which writes the code cache.
 */
import { build } from 'esbuild'
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildWebInbox } from './build-web.mjs'
import { lazyFetchBases } from './lazy-fetch-bases.mjs'
import { writeThirdPartyNotices } from './third-party-notices.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'dist/bin')
const UI_TOKEN = 'sendbox-ui-bundle'
const MCP_TOKEN = 'sendbox-mcp-bundle'
const BUNDLE_HASH_PLACEHOLDER = '@@SENDBOX_BUNDLE_HASH@@'
const uiPackages = ['ink', 'react', 'react/*', 'terminal-link']

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
}

/** Every file the builds below bundled (their metafiles' inputs): what dist/THIRD-PARTY-NOTICES.txt lists. */
const bundledInputs = new Set()
async function bundle(options) {
  const result = await build({ ...options, metafile: true })
  for (const input of Object.keys(result.metafile.inputs)) bundledInputs.add(input)
  return result
}

// The web inbox (dist/web): the CLI bundle below serves it, so it comes first.
for (const input of (await buildWebInbox(root)).inputs) bundledInputs.add(input)

// The library: `sendbox`, `sendbox/matchers` and `sendbox/server` (package.json "exports").
await buildLibrary()

// The terminal UI: an ES module importing ink and react from node_modules, as before.
await bundle({
  ...common,
  entryPoints: ['src/ui/terminal/render.tsx'],
  outfile: join(outdir, 'sendbox-ui.mjs'),
  format: 'esm',
  external: [...uiPackages, 'html-to-text'],
  plugins: [zodNamespace()],
})

// The MCP server (`sendbox mcp`, `/__sandbox/mcp`): an ES module loaded on first use, so that the
// CLI's start never parses the SDK. The SDK stays in node_modules (a dependency).
await bundle({
  ...common,
  entryPoints: ['src/mcp/index.ts'],
  outfile: join(outdir, 'sendbox-mcp.mjs'),
  format: 'esm',
  external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
  plugins: [zodNamespace()],
})

// The threaded transport's worker (`sendbox --threads 2`): an ES module of its own, started by
// the CLI from beside the bundle (the CommonJS bundle has no import.meta.url to find it by).
await bundle({
  ...common,
  entryPoints: ['src/transports/threaded-worker.ts'],
  outfile: join(outdir, 'sendbox-http-worker.mjs'),
  format: 'esm',
  // Loaded from node_modules if an MCP request ever reaches a worker's dispatcher.
  external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
  plugins: [zodNamespace()],
  // Some bundled CommonJS dependencies call require(); give the ES module one.
  banner: {
    js: "import { createRequire as __sendboxCreateRequire } from 'node:module'; const require = __sendboxCreateRequire(import.meta.url);",
  },
})

// The email checks' worker (issue 35): an ES module of its own beside the CLI bundle, found by
// src/transports/check-worker-pool.ts (the CommonJS bundle has no import.meta.url).
await bundle({
  ...common,
  entryPoints: ['src/transports/check-worker.ts'],
  outfile: join(outdir, 'sendbox-check-worker.mjs'),
  format: 'esm',
  plugins: [zodNamespace()],
  banner: {
    js: "import { createRequire as __sendboxCreateRequire } from 'node:module'; const require = __sendboxCreateRequire(import.meta.url);",
  },
})

// The CLI: one CommonJS file. The UI import is kept out and pointed at sendbox-ui.mjs.
const result = await bundle({
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
  external: [...uiPackages, 'express', '@mswjs/http-middleware', 'playwright-core'],
  plugins: [
    zodNamespace(),
    await seedNames(),
    lazyFetchBases(),
    {
      name: 'lazy-ui',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/ui\/terminal\/render\.js$/ }, () => ({ path: UI_TOKEN, external: true }))
      },
    },
    {
      // The MCP entry (src/mcp/index.ts, which re-exports src/mcp/mcp-http.ts), imported by `sendbox mcp` and the /__sandbox/mcp route, is sendbox-mcp.mjs.
      name: 'lazy-mcp',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/mcp\/(?:mcp-http|index)\.js$/ }, () => ({ path: MCP_TOKEN, external: true }))
      },
    },
    {
      // The web inbox's files are imported when first asked for, through the loader, from dist/web.
      name: 'web-assets',
      setup(b) {
        b.onLoad({ filter: /[\\/]src[\\/]http[\\/]web-assets\.ts$/ }, () => ({
          contents:
            'export async function importWebAssets() { return (await globalThis.__sendboxImport("../web/assets.js")).assets }',
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
const mcpImport = `import("${MCP_TOKEN}")`
if (code.split(mcpImport).length !== 3)
  throw new Error(`expected two ${mcpImport} in the CLI bundle (sendbox mcp, /__sandbox/mcp)`)
code = code.replaceAll(mcpImport, 'globalThis.__sendboxImport("./sendbox-mcp.mjs")')
// Wrapped as Node wraps a CommonJS module, so the loader compiles the file as it is (one copy of the source).
const wrapped = `(function (exports, require, module, __filename, __dirname) {${asciiOnly(code)}\n})`
writeFileSync(join(outdir, 'sendbox.cjs'), wrapped)
// The loader names its code cache after the bundle's content: V8 checks a cache against the
// source's length only, and npm gives every installed file one mtime, so size and mtime could
// pair a new bundle of the same size with an old cache.
const bundleHash = createHash('sha256').update(wrapped).digest('hex').slice(0, 16)

/**
 * The bundle in ASCII. Fourteen non-ASCII characters (in comments and two regular expressions)
 * made the whole 2.3 MB source a two-byte string: ~8 ms to decode and 4.6 MB held by V8; ASCII
 * reads in ~1–2 ms as a one-byte string of 2.3 MB, and the loader reads it as latin1, which for
 * ASCII gives the same string without UTF-8 validation. esbuild escapes strings,
 * templates and identifiers already; what is left is comments and regular expression literals,
 * where `\uXXXX` (one per UTF-16 unit) means the same character, with or without the `u` flag.
 * An escaped character (`\€`) would change meaning: the build fails instead.
 */
function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (char, at) => {
    let backslashes = 0
    while (text[at - 1 - backslashes] === '\\') backslashes++
    if (backslashes % 2 === 1)
      throw new Error(
        `an escaped non-ASCII character in the CLI bundle: ${JSON.stringify(text.slice(at - 40, at + 40))}`,
      )
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

const loaderSource = readFileSync(join(root, 'scripts/cli-loader.mjs'), 'utf8')
if (loaderSource.split(BUNDLE_HASH_PLACEHOLDER).length !== 2)
  throw new Error(`expected one ${BUNDLE_HASH_PLACEHOLDER} in scripts/cli-loader.mjs`)
writeFileSync(join(outdir, 'sendbox.js'), loaderSource.replace(BUNDLE_HASH_PLACEHOLDER, bundleHash))
chmodSync(join(outdir, 'sendbox.js'), 0o755)
if (!readFileSync(join(outdir, 'sendbox.js'), 'utf8').startsWith('#!/usr/bin/env node\n'))
  throw new Error('the loader lost its hashbang')
// Leftovers of the previous layout (an ESM bundle split in chunks).
rmSync(join(outdir, 'chunks'), { recursive: true, force: true })

// The licenses of what the builds above bundled, shipped beside them (package.json "files": dist).
writeThirdPartyNotices(root, bundledInputs)

// One run of the server writes V8's code cache for this bundle, so the first start after a build
// is warm too: a start, the first list request and an email send, then SIGTERM (the cache is
// written at exit). A cache written after `--version` alone held only the bundle's top level;
// every start then compiled the serve path and the request path lazily (~50–70 ms).
await warmCodeCache()

/** Runs the server once through the loader and asks it what a start and a first request run. */
async function warmCodeCache() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_')))
  env.SENDBOX_COMPILE_CACHE_AT_EXIT = '1'
  const cwd = mkdtempSync(join(tmpdir(), 'sendbox-warm-')) // no sendbox.config.json here
  const loader = join(outdir, 'sendbox.js')
  try {
    const served = await new Promise((resolve) => {
      const child = spawn(process.execPath, [loader, '--no-ui', '--host', '127.0.0.1', '--port', '0'], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      let asked = false
      let answered = false
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      child.once('exit', (code) => {
        clearTimeout(timer)
        resolve(answered && code === 0)
      })
      child.stdout.setEncoding('utf8')
      child.stdout.on('data', async (chunk) => {
        out += chunk
        const url = /listening on (http:\/\/\S+\/v1)/.exec(out)?.[1]
        if (!url || asked) return
        asked = true
        try {
          const headers = { authorization: 'Bearer test_pro', 'content-type': 'application/json' }
          const list = await fetch(`${url}/subscribers?limit=1`, { headers })
          await list.text()
          const body = JSON.stringify({
            to: 'ana@example.com',
            subject: 'Your code',
            html: '<p>Your code is <b>123456</b>: <a href="https://example.com/verify">verify</a></p>',
          })
          const send = await fetch(`${url}/email/send`, { method: 'POST', headers, body })
          await send.text()
          answered = list.ok && send.ok
        } catch {
          // not answered: the `--version` run below
        } finally {
          child.kill('SIGTERM')
        }
      })
      child.stderr.resume()
    })
    if (served) return
  } catch {
    // fall through to the short run
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
  // No server could run here (no loopback, or a platform where SIGTERM skips exit handlers): a
  // `--version` run writes a cache of the bundle's top level at least.
  const warm = spawnSync(process.execPath, [loader, '--version'], { env, encoding: 'utf8' })
  if (warm.status !== 0) throw new Error(`the bundled CLI does not run: ${warm.stderr}`)
}

/**
 * The library entries as ES modules in dist/lib, split into shared chunks: `import('sendbox')`
 * read ~80 files of tsc output and zod's ~100 (with every locale), ~1.6× `import('msw')`.
 * - One copy of every module behind the entries (splitting): `sendbox/server` and
 *   `sendbox/matchers` see the same guard, outbox and classes as `sendbox`.
 * - msw stays external (the peer dependency: the handlers extend the user's msw), and so does
 *   every other dependency but @msw/data, html-to-text and htmlparser2 (bundled into their lazy
 *   chunks), so the lazy `import()`s of faker and of those stay lazy. zod is bundled (measured: bundled and tree-shaken it loads in a
 *   fraction of its package, whose entry evaluates every locale).
 * - The types stay tsc's (dist/src/*.d.ts, *.d.cts); tsc's JavaScript in dist/src stays beside,
 *   for the bench scripts that import internal modules.
 */
async function buildLibrary() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  // caniemail (a dev dependency: only its JSON is used) is bundled: esbuild inlines the JSON in the
  // lazily loaded checks chunk (an external JSON import loses its `with { type: 'json' }` and fails).
  // @msw/data too, into the chunk its lazy import() loads on the first subscriber write: from
  // node_modules it imports es-toolkit's entries, ~550 files, 140 ms+ in a test file
  // (docs/decisions/suite-cost.md); bundled, es-toolkit is the five functions it uses.
  // html-to-text and htmlparser2 too, into the chunk the first email's derivation loads: from
  // node_modules they are ~40 ES modules (domhandler, domutils, entities, selderee, parseley…),
  // 26–29 ms to import on Node 24, against 12–14 ms as one chunk, in every test file that sends an
  // email (docs/decisions/suite-cost.md). The CLI's bundle still loads them from node_modules.
  const bundled = new Set(['zod', 'caniemail', '@msw/data', 'html-to-text', 'htmlparser2'])
  const external = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter(
    (name) => !bundled.has(name),
  )
  // Chunk names carry a content hash: without this, a rebuild leaves the old chunks beside the
  // new ones (and `npm pack` ships them).
  rmSync(join(root, 'dist/lib'), { recursive: true, force: true })
  const result = await bundle({
    ...common,
    // check-worker: the email checks' worker thread, found beside the chunks as ./check-worker.js.
    entryPoints: {
      index: 'src/index.ts',
      matchers: 'src/matchers.ts',
      server: 'src/transports/http-server.ts',
      client: 'src/client/index.ts',
      playwright: 'src/playwright/index.ts',
      'check-worker': 'src/transports/check-worker.ts',
    },
    outdir: join(root, 'dist/lib'),
    format: 'esm',
    splitting: true,
    chunkNames: '[name]-[hash]', // beside the entries: one directory, so import.meta.url means one place
    external: [...external, ...external.map((name) => `${name}/*`)],
    metafile: true,
    plugins: [zodNamespace(), libraryAssetSource(), oneEntities(), mswPeerCheck(manifest.peerDependencies.msw)],
  })
  // A module that finds files by its own URL (import.meta.url) would look for them beside a chunk
  // of dist/lib. The one such module is handled above; a new one must be handled too.
  for (const input of Object.keys(result.metafile.inputs)) {
    // check-worker-pool.ts finds ./check-worker.js (an entry above) beside itself.
    if (
      input.startsWith('node_modules/') ||
      input.includes(':') ||
      /web-assets\.ts$|check-worker-pool\.ts$/.test(input)
    )
      continue
    if (readFileSync(join(root, input), 'utf8').includes('import.meta')) {
      throw new Error(
        `${input} reads import.meta, which means dist/lib/ once bundled: handle it in scripts/bundle.mjs (buildLibrary)`,
      )
    }
  }
}

/**
 * The library's imports of `msw` (the peer dependency, external) go through one small module that
 * checks the installed msw before anything uses it. A consumer on msw 1.x (`npm install --force`
 * past the peer conflict) would otherwise fail at link time inside our bundle ("does not provide
 * an export named 'HttpHandler'"); this says which versions work and how to get one. Only
 * `import … from 'msw'` is routed here (not `msw/node` or `msw/browser`, which the library does
 * not import); the CLI bundle carries its own msw and never sees this.
 */
function mswPeerCheck(range) {
  const shim = 'sendbox-msw-peer'
  return {
    name: 'msw-peer-check',
    setup(b) {
      b.onResolve({ filter: /^msw$/ }, (args) =>
        args.namespace === shim ? { path: 'msw', external: true } : { path: 'msw', namespace: shim },
      )
      b.onLoad({ filter: /.*/, namespace: shim }, () => ({
        resolveDir: root,
        contents: [
          "import * as msw from 'msw'",
          "if (typeof msw.HttpHandler !== 'function' || typeof msw.getResponse !== 'function' || typeof msw.http !== 'object') {",
          `  throw new Error(${JSON.stringify(`sendbox needs msw ${range} (its peer dependency), but the installed msw has no HttpHandler, http or getResponse: msw 1.x or older. Install a supported version: npm install --save-dev msw@latest`)})`,
          '}',
          'export const { HttpHandler, getResponse, http, HttpResponse } = msw',
        ].join('\n'),
      }))
    },
  }
}

/**
 * `import { z } from 'zod'` gives zod's namespace as a value, which esbuild keeps whole (~750 KB,
 * every locale); `import * as z from 'zod'` lets it keep what is used (~170 KB). Same object for
 * every `z.…` use, so the sources are read with the second form.
 */
function zodNamespace() {
  return {
    name: 'zod-namespace',
    setup(b) {
      b.onLoad({ filter: /[\\/](src|fixtures)[\\/].*\.tsx?$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8')
        if (!/import \{ z \} from 'zod'/.test(text)) return undefined
        return {
          contents: text.replace(/import \{ z \} from 'zod'/g, "import * as z from 'zod'"),
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
        }
      })
    },
  }
}

/**
 * One copy of `entities` in the HTML tools' chunk: htmlparser2 10 brings entities 7, html-to-text's
 * dom-serializer 2 entities 4, and each copy builds its decode tables when the chunk loads (~2 ms
 * of the first email in every test file; docs/decisions/suite-cost.md). dom-serializer imports
 * `encodeXML`, `escapeAttribute` and `escapeText`, which entities 7 exports; it serializes only
 * for html-to-text's `blockHtml`/`inlineHtml` formats, which sendbox's text options never use.
 * The import resolves as htmlparser2's own would (esbuild's resolver, from htmlparser2's folder),
 * so it follows npm's layout, hoisted or nested.
 */
function oneEntities() {
  return {
    name: 'one-entities',
    setup(b) {
      let htmlparser2
      b.onResolve({ filter: /^entities$/ }, async (args) => {
        if (args.pluginData === 'one-entities') return undefined
        // htmlparser2's entry (its package.json is not exported): resolving from its folder walks up to its copy.
        htmlparser2 ??= await b.resolve('htmlparser2', { kind: 'import-statement', resolveDir: root })
        if (htmlparser2.errors.length > 0) return { errors: htmlparser2.errors }
        const resolved = await b.resolve('entities', {
          kind: args.kind,
          resolveDir: dirname(htmlparser2.path),
          pluginData: 'one-entities',
        })
        if (resolved.errors.length > 0) return { errors: resolved.errors }
        return { path: resolved.path }
      })
    },
  }
}

/**
 * The web inbox's files (dist/web/assets.js), which web-assets.ts finds by its own URL from
 * dist/src/http/: from a chunk in dist/lib they are one level up.
 */
function libraryAssetSource() {
  return {
    name: 'library-asset-source',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]http[\\/]web-assets\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8')
        const candidates = /const CANDIDATES = \[[^\]]*\]/
        if (!candidates.test(text)) throw new Error('web-assets.ts: no CANDIDATES list to point at dist/web')
        return { contents: text.replace(candidates, "const CANDIDATES = ['../web/assets.js']"), loader: 'ts' }
      })
    },
  }
}

/**
 * Seeding (src/domain/seeded-subscribers.ts) builds its Faker from the English locale's definitions, of
 * which it reads `person.first_name`, `person.last_name` and `person.last_name_pattern` (any
 * other would throw: faker reports missing locale data). In the CLI, the seeding's import of
 * `@faker-js/faker/locale/en` (~470 KB of definitions, ~10 ms to evaluate at every start) is
 * replaced by faker's `base` entry (the same Faker class) and those three definitions, copied at
 * build time from the installed faker: the same data, so the same subscribers for a seed.
 */
async function seedNames() {
  const { faker } = await import('@faker-js/faker/locale/en')
  const { first_name, last_name, last_name_pattern } = faker.rawDefinitions.person
  const definitions = { person: { first_name, last_name, last_name_pattern } }
  return {
    name: 'seed-names',
    setup(b) {
      b.onResolve({ filter: /^@faker-js\/faker\/locale\/en$/ }, (args) => {
        if (!/[\\/]domain[\\/]seeded-subscribers\.ts$/.test(args.importer)) return undefined
        return { path: 'seed-names', namespace: 'sendbox-seed-names' }
      })
      b.onLoad({ filter: /.*/, namespace: 'sendbox-seed-names' }, () => ({
        contents: `import { faker as base } from '@faker-js/faker/locale/base'\nconst Faker = base.constructor\nexport const faker = new Faker({ locale: ${JSON.stringify(definitions)} })\n`,
        loader: 'js',
        resolveDir: root,
      }))
    },
  }
}
