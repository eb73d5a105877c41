/**
 * The standalone server (as the CLI builds it) with a probe: on an IPC message it answers its
 * memory breakdown — process.memoryUsage(), V8 heap spaces, and after a full GC when asked.
 * Usage (from memory-after-load.mjs): node --expose-gc memory-probe-server.mjs [--threads N] [sendbox flags]
 */
import './runtime-v8-flags.mjs'
import { getHeapSpaceStatistics } from 'node:v8'
import { PerformanceObserver } from 'node:perf_hooks'
import { parseCli } from '../../dist/src/cli/options.js'
import { sandboxFromSettings } from '../../dist/src/cli/run.js'
import { startThreadedServer } from '../../dist/src/transports/threaded-server.js'

const argv = process.argv.slice(2)
const at = argv.indexOf('--threads')
const threads = at === -1 ? 1 : Number(argv.splice(at, 2)[1])
const settings = parseCli(argv, {})
const sandbox = await sandboxFromSettings(settings)
const running = await startThreadedServer(sandbox, { port: settings.port, host: settings.host, threads })
// GC time by kind (scavenge, mark-compact, …), cumulative: the CPU a heap setting costs.
const gc = {}
let requests = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = { 1: 'minor', 4: 'major', 8: 'incremental', 16: 'weak' }[entry.detail?.kind] ?? 'other'
    const slot = (gc[kind] ??= { count: 0, ms: 0 })
    slot.count++
    slot.ms += entry.duration
  }
}).observe({ entryTypes: ['gc'] })
running.server?.on('request', () => requests++)
const mb = (n) => Math.round((n / 2 ** 20) * 10) / 10
function report() {
  const m = process.memoryUsage()
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [
      s.space_name.replace('_space', ''),
      { size: mb(s.space_size), used: mb(s.space_used_size) },
    ]),
  )
  return {
    rss: mb(m.rss),
    heapTotal: mb(m.heapTotal),
    heapUsed: mb(m.heapUsed),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
    spaces,
    outbox: sandbox.outbox.size,
    journal: sandbox.journal.size ?? sandbox.journal.list?.().length,
    gc: structuredClone(gc),
    requests,
  }
}
process.on('message', (message) => {
  if (message === 'gc') globalThis.gc?.()
  process.send(report())
})
process.send({ ready: running.port })
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)))
