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
const { fileURLToPath } = process.getBuiltinModule('node:url')

// Node's own flags for sendbox's process. They only work on node's command line, before V8
// starts: with `--no-concurrent-recompilation` V8 optimizes on the main thread, so Maglev's and
// TurboFan's compiles leave no memory in the malloc arenas of V8's worker threads (RSS right after
// the bench's send and list load on Node 24: 122–129 MB against 141–152, for 0–8 % more CPU a send
// in the runs measured; Node 20: 109–112 against 114–118). `npm start` (package.json) and the
// container's ENTRYPOINT (Dockerfile) give them to node; test/cli/start-flags.test.ts holds both
// to this list. Any other start (`npx sendbox`, `node dist/bin/sendbox.js`) gets them here: node
// is executed again in place with them, before anything else is loaded (docs/decisions/reexec-start-flags.md).
const START_NODE_FLAGS = ['--no-concurrent-recompilation']
reexecWithStartFlags()

/**
 * Replaces this process with node run with START_NODE_FLAGS before its own flags, and the same
 * script and arguments (`process.execve`: the same PID, stdio, environment and signals), unless it
 * has them: one more boot of node, 25–30 ms a start measured (the start got more than that back
 * first: docs/decisions/reexec-start-flags.md). Not where there is no `process.execve` (Node before
 * 22.15; Windows, where it throws), under a debugger, nor when this file is imported rather than
 * run. It execs the node binary running now; node ends the process if that exec fails.
 */
function reexecWithStartFlags() {
  if (typeof process.execve !== 'function' || process.platform === 'win32') return
  if (START_NODE_FLAGS.every((flag) => process.execArgv.includes(flag))) return
  // Under a debugger (`--inspect`, `--inspect-brk`): the one it attached to stays the process.
  if (process.execArgv.some((flag) => flag.startsWith('--inspect'))) return
  let main
  try {
    main = process.getBuiltinModule('node:fs').realpathSync(process.argv[1])
  } catch {
    return
  }
  if (main !== fileURLToPath(import.meta.url)) return
  process.execve(
    process.execPath,
    [process.execPath, ...START_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  )
}

// Node's modules through `process.getBuiltinModule`, not `import` statements: a module's imports
// are loaded before any of its code runs, and a start that executes node again should load
// nothing it does not need first (~5-10 ms of node:v8, node:vm and node:perf_hooks).
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } =
  process.getBuiltinModule('node:fs')
const { createRequire } = process.getBuiltinModule('node:module')
const { dirname, join, sep } = process.getBuiltinModule('node:path')
const { getHeapSpaceStatistics, setFlagsFromString } = process.getBuiltinModule('node:v8')
const { runInNewContext, Script } = process.getBuiltinModule('node:vm')
const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks')

// Memory under load (docs/performance.md): V8 lets the old generation grow to ~4× what is live
// (~30 MB: the outbox's 10,000 messages, the journal, the subscribers) before a full collection,
// and keeps the pages; these flags let it grow to 1.5× and keep the young generation at its
// initial size (the measured trade of RSS after load and in the soak against CPU and p99 is in
// docs/performance.md, *Heap flags, revisited*). The heap-growing flag is read at each limit computation, the semi-space one
// at each young-generation resize, so they take effect whenever they are set. SENDBOX_V8_FLAGS
// replaces these (empty: V8's own).
//
// They are set once the server is up (`__sendboxStarted`), not here: any flag set at run time changes
// V8's flag hash, and Node's built-in modules then no longer match their embedded code cache, so
// each one loaded afterwards is compiled from source. Start-up loads undici (Request, Response)
// and node:http: setting the flags first cost ~30–45 ms of a ~200 ms start. The same hash guards
// the bundle's own code cache: it is only written while the flags are still those of the start.
// Not later than that either: set a second after start-up, they froze the young generation at what
// a load that came within that second had grown it to (the bench's load: ~30 MB more RSS).
//
// Not `--no-maglev`: it took ~20 MB off the RSS right after the bench's load on Node 24 (Maglev's
// background compiles leave their memory in malloc arenas) for ~5 % more CPU a send
// (docs/decisions/cli-memory-settle.md); the settle below gives memory back without that cost.
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
  youngTarget = youngGenerationSize()
  changeFlags(V8_FLAGS)
  // The old generation's limit was computed under V8's default growth by start-up's collections;
  // the new factor applies from the next full collection. The settle below runs one as soon as the
  // loop idles after start-up's own work (within a second); one here instead put ~9 ms (a fresh
  // context for `gc`, then the collection) before the first request on Node 20, for no RSS
  // measured after the bench's load (137–139 MB either way).
}

// The young generation's growth factor of the flags (1: it keeps its size), and the size it had when
// they were set (start-up's: two 8 MB semi-spaces on Node 24). A memory-reducing collection shrinks
// it to its least; frozen there, a load promotes what a request leaves behind to the old generation
// (~15 % more CPU a send, measured). So after one, it may grow again (V8's factor 2, read at each
// resize) until it is back at that size, then the flags' factor holds it there.
const YOUNG_GROWTH = /--semi-space-growth-factor=\S+/.exec(V8_FLAGS)?.[0]
let youngTarget = 0
function youngGenerationSize() {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size
  return 0
}
let regrowing
function regrowYoungGeneration() {
  if (YOUNG_GROWTH === undefined || regrowing || youngGenerationSize() >= youngTarget) return
  changeFlags('--semi-space-growth-factor=2')
  regrowing = new PerformanceObserver(() => {
    if (youngGenerationSize() < youngTarget) return
    changeFlags(YOUNG_GROWTH)
    regrowing.disconnect()
    regrowing = undefined
  })
  regrowing.observe({ entryTypes: ['gc'] })
}

let collect // made on first use: a fresh context costs a few ms that start-up need not pay
/**
 * One full collection of V8's memory-reducing kind (what its own memory reducer runs, and
 * `gc({ flavor: 'last-resort' })` asks for): it also shrinks the young generation to its least and
 * returns the pages a collection frees to the system. A plain `gc()` keeps them for reuse: RSS did
 * not move after it.
 */
function collectGarbage() {
  if (!collect) {
    changeFlags('--expose-gc')
    collect = runInNewContext('gc')
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}

// Settling after load: V8 keeps the pages a load made it commit (the young generation at the size
// the load grew it to, the old generation's garbage until its next limit, the pages collections
// freed) for as long as the process idles. When the event loop has done work (100 ms of it since
// the last settle) and then idles for half a second (under 1 % busy), one memory-reducing
// collection gives them back: after the bench's send and list load on Node 24, ~155 → ~115 MB
// within a second of the load's end (docs/decisions/cli-memory-settle.md). A young generation
// shrunk this way grows again with the next load. SENDBOX_NO_SETTLE=1 skips it, and so does the
// build's warm-up run (its cache is written at exit, under the flags of the start).
if (!process.env.SENDBOX_NO_SETTLE && !process.env.SENDBOX_COMPILE_CACHE_AT_EXIT) {
  let before = performance.eventLoopUtilization()
  let workSinceSettle = 0 // ms the event loop was busy since the last settle
  setInterval(() => {
    const now = performance.eventLoopUtilization()
    const window = performance.eventLoopUtilization(now, before)
    before = now
    if (window.utilization >= 0.01) workSinceSettle += window.active
    else if (workSinceSettle >= 100) {
      workSinceSettle = 0
      setMemoryFlags()
      collectGarbage()
      regrowYoungGeneration()
    }
  }, 500).unref()
}

/**
 * Called by the CLI before it reads a `--data` store: the memory flags at once (a restore of a big
 * outbox makes its garbage before start-up is over; under V8's default growth it peaked at ~1.5×
 * the live RSS). The start pays Node's builtins compiled without their code cache, which a
 * restore's seconds dwarf.
 */
globalThis.__sendboxMemoryFlags = () => {
  if (!process.env.SENDBOX_COMPILE_CACHE_AT_EXIT) setMemoryFlags()
}

/**
 * Called by the CLI (src/cli/serve.ts) once the server listens and its seeded data is in place: the
 * memory flags are set then (builtins the first requests load lazily are compiled without their
 * code cache: a few ms, once). The build's warm-up run (SENDBOX_COMPILE_CACHE_AT_EXIT=1) keeps V8's
 * flags, so its cache, written at exit, fits the next start.
 */
globalThis.__sendboxStarted = () => {
  if (!process.env.SENDBOX_COMPILE_CACHE_AT_EXIT) setMemoryFlags()
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
// the default one at every alternate start. Not the start flags (above): V8 accepts the same cache
// under them, so a start where node cannot be executed again with them shares it.
const flagsKey = fnv1a(
  `${process.execArgv.filter((flag) => !START_NODE_FLAGS.includes(flag)).join(' ')}|${process.env.NODE_OPTIONS ?? ''}`,
)
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
  // the memory flags are about to be set (once the server is up, so it holds what start-up
  // compiled), or at exit for a shorter run. `npm run build` starts the server once, sends it a
  // first request and stops it, so the cache it writes at exit holds the serve and request paths too.
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
