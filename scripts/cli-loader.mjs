#!/usr/bin/env node
/*
 * The `sendbox` command (copied to dist/bin/sendbox.js by scripts/bundle.mjs).
 *
 * It runs the bundled CLI (sendbox.cjs beside it) through V8's code cache: parsing and compiling
 * ~2 MB of bundled msw, zod and @msw/data is most of what start-up costs after bundling, and
 * Node 20 has no compile cache for modules (module.enableCompileCache is Node 22), so the
 * bundle is compiled as a classic script with `cachedData`. The cache lives in
 * node_modules/.cache/sendbox, keyed by the bundle's size, mtime, the Node version and arch;
 * V8 rejects a cache that does not fit and a fresh one is written (see the end of this file).
 * SENDBOX_NO_COMPILE_CACHE=1 turns it off. The terminal UI is an ES module (ink is ESM-only)
 * loaded lazily through `globalThis.__sendboxImport`.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext, Script } from 'node:vm'

// Memory under load (docs/performance.md): V8 lets the old generation grow to ~4× what is live
// (~30 MB: the outbox's 10,000 messages, the journal, the subscribers) before a full collection,
// and keeps the pages. The heap-growing flag is read at each limit computation, so setting it here,
// before any of the bundle runs, takes effect. SENDBOX_V8_FLAGS replaces these (empty: V8's own).
const V8_FLAGS = process.env.SENDBOX_V8_FLAGS ?? '--heap-growing-percent=50 --semi-space-growth-factor=1'
for (const flag of V8_FLAGS.split(' ').filter(Boolean)) setFlagsFromString(flag)

// Settling after load: V8 keeps the young generation at the size the load grew it to, and the old
// generation's garbage until its next limit, for as long as the process idles. One full collection
// when the event loop goes from busy to idle gives that back (~40–80 MB). SENDBOX_NO_SETTLE=1 skips it.
if (!process.env.SENDBOX_NO_SETTLE) {
  let collect // made on first use: a fresh context costs a few ms that start-up need not pay
  let before = performance.eventLoopUtilization()
  let busy = false
  setInterval(() => {
    const now = performance.eventLoopUtilization()
    const utilization = performance.eventLoopUtilization(now, before).utilization
    before = now
    if (utilization > 0.05) busy = true
    else if (busy && utilization < 0.01) {
      busy = false
      if (!collect) {
        setFlagsFromString('--expose-gc')
        collect = runInNewContext('gc')
      }
      collect()
    }
  }, 2000).unref()
}

const bundle = fileURLToPath(new URL('./sendbox.cjs', import.meta.url))
const here = dirname(bundle)

function cacheDirectory() {
  const marker = `${sep}node_modules${sep}`
  const at = here.lastIndexOf(marker)
  const nodeModules = at === -1 ? join(here, '..', '..', 'node_modules') : here.slice(0, at + marker.length - 1)
  return join(nodeModules, '.cache', 'sendbox')
}

const useCache = !process.env.SENDBOX_NO_COMPILE_CACHE
const { size, mtimeMs } = statSync(bundle)
const cacheDir = cacheDirectory()
const cacheName = `cli-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}.v8cache`
let cachedData
if (useCache) {
  try {
    cachedData = readFileSync(join(cacheDir, cacheName))
  } catch {
    // no cache yet
  }
}

globalThis.__sendboxImport = (specifier) => import(new URL(specifier, import.meta.url).href)

// The bundle is written wrapped in its CommonJS function already: its source is held once, by V8.
// ASCII only (scripts/bundle.mjs makes it so): latin1 gives the same one-byte string, unvalidated.
const script = new Script(readFileSync(bundle, 'latin1'), { filename: bundle, cachedData })
const cacheWanted = useCache && (cachedData === undefined || script.cachedDataRejected)
cachedData = undefined
const cjsModule = { exports: {} }
script.runInThisContext()(cjsModule.exports, createRequire(bundle), cjsModule, bundle, here)

if (cacheWanted) {
  // Written once: a second after start (so it holds what start-up compiled, never on the way of
  // a request), or at exit for a shorter run. `npm run build` starts the server once, sends it a
  // first request and stops it, so the cache it writes holds the serve and request paths too.
  let written = false
  const writeCache = () => {
    if (written) return
    written = true
    try {
      mkdirSync(cacheDir, { recursive: true })
      const temporary = join(cacheDir, `${cacheName}.${process.pid}.tmp`)
      writeFileSync(temporary, script.createCachedData())
      renameSync(temporary, join(cacheDir, cacheName))
      for (const name of readdirSync(cacheDir)) {
        if (name.startsWith('cli-') && name !== cacheName && !name.endsWith('.tmp')) rmSync(join(cacheDir, name), { force: true })
      }
    } catch {
      // A read-only install: run without a cache.
    }
  }
  // SENDBOX_COMPILE_CACHE_AT_EXIT=1 (the build's warm-up run): only at exit, once its requests ran.
  if (!process.env.SENDBOX_COMPILE_CACHE_AT_EXIT) setTimeout(writeCache, 1000).unref()
  process.once('exit', writeCache)
}
