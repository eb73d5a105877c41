#!/usr/bin/env node
/*
 * The `sendbox` command (copied to dist/bin/sendbox.js by scripts/bundle.mjs).
 *
 * It runs the bundled CLI (sendbox.cjs beside it) through V8's code cache: parsing and compiling
 * ~2 MB of bundled msw, zod and @msw/data is most of what start-up costs after bundling, and
 * Node 20 has no compile cache for modules (module.enableCompileCache is Node 22), so the
 * bundle is compiled as a classic script with `cachedData`. The cache lives in
 * node_modules/.cache/sendbox, keyed by the bundle's content hash, the Node version, arch and flags;
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
// and keeps the pages; these flags let it grow to 1.5× and keep the young generation at its
// initial size (the measured trade of RSS after load and in the soak against CPU and p99 is in
// docs/performance.md, *Heap flags, revisited*). The heap-growing flag is read at each limit computation, the semi-space one
// at each young-generation resize, so they take effect whenever they are set. SENDBOX_V8_FLAGS
// replaces these (empty: V8's own).
//
// They are set once the server is up (see `afterStart`), not here: any flag set at run time changes
// V8's flag hash, and Node's built-in modules then no longer match their embedded code cache, so
// each one loaded afterwards is compiled from source. Start-up loads undici (Request, Response)
// and node:http: setting the flags first cost ~30–45 ms of a ~200 ms start. The same hash guards
// the bundle's own code cache: it is only written while the flags are still those of the start.
const V8_FLAGS = process.env.SENDBOX_V8_FLAGS ?? '--heap-growing-percent=50 --semi-space-growth-factor=1'
let flagsAsAtStart = true
let beforeFlagsChange = () => {} // writes the code cache when one is wanted (below)
function changeFlags(flags) {
  if (flagsAsAtStart) beforeFlagsChange()
  flagsAsAtStart = false
  for (const flag of flags.split(' ').filter(Boolean)) setFlagsFromString(flag)
}
let memoryFlagsSet = false
function setMemoryFlags() {
  if (memoryFlagsSet) return
  memoryFlagsSet = true
  changeFlags(V8_FLAGS)
  // The old generation's limit was computed under V8's default growth by start-up's collections;
  // the new factor applies from the next full collection. One now (a start-up-sized heap: a few
  // ms) makes the limit 1.5× what is live before the load comes, not after the first load grew
  // the heap to the old limit: ~13 MB less RSS after the bench's load on Node 24.
  if (V8_FLAGS !== '') collectGarbage()
}

let collect // made on first use: a fresh context costs a few ms that start-up need not pay
function collectGarbage() {
  if (!collect) {
    changeFlags('--expose-gc')
    collect = runInNewContext('gc')
  }
  collect()
}

// Settling after load: V8 keeps the young generation at the size the load grew it to, and the old
// generation's garbage until its next limit, for as long as the process idles. One full collection
// when the event loop goes from busy to idle gives that back (~40–80 MB). SENDBOX_NO_SETTLE=1 skips it.
if (!process.env.SENDBOX_NO_SETTLE) {
  let before = performance.eventLoopUtilization()
  let busy = false
  setInterval(() => {
    const now = performance.eventLoopUtilization()
    const utilization = performance.eventLoopUtilization(now, before).utilization
    before = now
    if (utilization > 0.05) busy = true
    else if (busy && utilization < 0.01) {
      busy = false
      setMemoryFlags()
      collectGarbage()
    }
  }, 2000).unref()
}

/**
 * Called by the CLI (src/cli/run.ts) once the server listens and its seeded data is in place: a
 * second later (start-up and its first requests done), the memory flags are set. The build's
 * warm-up run (SENDBOX_COMPILE_CACHE_AT_EXIT=1) keeps V8's flags, so its cache, written at exit,
 * fits the next start.
 */
/**
 * Called by the CLI before it reads a `--data` store: the memory flags at once (a restore of a big
 * outbox makes its garbage before start-up is over; under V8's default growth it peaked at ~1.5×
 * the live RSS). The start pays Node's builtins compiled without their code cache, which a
 * restore's seconds dwarf.
 */
globalThis.__sendboxMemoryFlags = () => {
  if (!process.env.SENDBOX_COMPILE_CACHE_AT_EXIT) setMemoryFlags()
}

globalThis.__sendboxStarted = () => {
  if (!process.env.SENDBOX_COMPILE_CACHE_AT_EXIT) setTimeout(setMemoryFlags, 1000).unref()
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
const cacheDir = cacheDirectory()
// The bundle's content hash, written in by scripts/bundle.mjs; size and mtime for a loader run
// from scripts/ as it is (never, in practice).
const BUNDLE_HASH = '@@SENDBOX_BUNDLE_HASH@@'
const bundleKey = BUNDLE_HASH.startsWith('@@')
  ? `cli-${statSync(bundle).size}-${Math.trunc(statSync(bundle).mtimeMs)}-`
  : `cli-${BUNDLE_HASH}-`
// V8 also rejects a cache made under other V8 flags: flags given to node itself (`node
// --max-old-space-size=… sendbox.js`, NODE_OPTIONS) get a cache of their own, instead of replacing
// the default one at every alternate start.
const flagsKey = fnv1a(`${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`)
const cacheName = `${bundleKey}${process.version}-${process.arch}-${flagsKey}.v8cache`
let cachedData
if (useCache) {
  try {
    cachedData = readFileSync(join(cacheDir, cacheName))
  } catch {
    // no cache yet
  }
}

/** A short hash of a string (FNV-1a, 32 bits, hex): node:crypto would cost more to load than it saves. */
function fnv1a(text) {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16)
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
  // Written once, while V8's flags are those of the start (else the next start rejects it): when
  // the memory flags are about to be set (a second after the server is up, so it holds what
  // start-up and the first requests compiled, never on the way of one), or at exit for a shorter
  // run. `npm run build` starts the server once, sends it a first request and stops it, so the
  // cache it writes at exit holds the serve and request paths too.
  let written = false
  const writeCache = () => {
    if (written || !flagsAsAtStart) return
    written = true
    try {
      mkdirSync(cacheDir, { recursive: true })
      const temporary = join(cacheDir, `${cacheName}.${process.pid}.tmp`)
      writeFileSync(temporary, script.createCachedData())
      renameSync(temporary, join(cacheDir, cacheName))
      for (const name of readdirSync(cacheDir)) {
        // Caches of earlier builds go; this build's, for other Node versions or flags, stay.
        if (name.startsWith('cli-') && !name.startsWith(bundleKey) && !name.endsWith('.tmp'))
          rmSync(join(cacheDir, name), { force: true })
      }
    } catch {
      // A read-only install: run without a cache.
    }
  }
  beforeFlagsChange = writeCache
  process.once('exit', writeCache)
}
