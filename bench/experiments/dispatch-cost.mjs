/**
 * What the sandbox's own JavaScript costs per email send, without sockets: the CLI's sandbox
 * (parseCli + sandboxFromSettings, the bench's flags), its dispatcher called in a loop with the
 * request the standalone listener builds (raw headers, the body attached). Prints µs per send
 * (median of the rounds after the first `--warm`, which fill the outbox) and the GC time in them.
 *
 *   node bench/experiments/dispatch-cost.mjs [--sends 20000] [--rounds 9] [--warm 3] [--dist DIR]
 */
import { PerformanceObserver } from 'node:perf_hooks'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const { values: flags } = parseArgs({
  options: {
    sends: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '9' },
    warm: { type: 'string', default: '3' },
    dist: { type: 'string', default: process.cwd() },
    endpoint: { type: 'string', default: 'send' },
  },
})
const lib = (path) => import(pathToFileURL(join(flags.dist, 'dist/src', path)).href)
const { parseCli } = await lib('cli/options.js')
const { sandboxFromSettings } = await lib('cli/run.js')
const { createDispatcher } = await lib('http/index.js')
const { RawHeaders, attachBufferedBody } = await lib('http/body.js')

const settings = parseCli(
  [
    '--no-ui',
    '--port',
    '0',
    '--subscribers',
    '1000',
    '--api-key',
    'bench:enterprise:bench',
    '--limit',
    'enterprise=1000000',
  ],
  {},
)
const sandbox = await sandboxFromSettings(settings)
await sandbox.ready
const dispatch = createDispatcher(sandbox)
const body = new TextEncoder().encode(
  JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' }),
)
const send = flags.endpoint === 'send'
const target = new URL(`${sandbox.baseUrl.replace(/\/$/, '')}${send ? '/email/send' : '/subscribers?page=1&limit=20'}`)
const raw = [
  'Host',
  '127.0.0.1:4010',
  'authorization',
  'Bearer bench',
  'content-type',
  'application/json',
  ...(send ? ['content-length', String(body.length)] : []),
]
const one = async () => {
  const request = {
    method: send ? 'POST' : 'GET',
    url: target.href,
    headers: new RawHeaders(raw),
    clientAddress: '127.0.0.1',
    signal: undefined,
  }
  if (send) attachBufferedBody(request, body)
  const answer = await dispatch(request, target)
  if (answer.status >= 300) throw new Error(`status ${answer.status}: ${answer.text}`)
}
let gcMs = 0
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration
}).observe({ entryTypes: ['gc'] })
const n = Number(flags.sends)
const results = []
for (let round = 0; round < Number(flags.rounds); round++) {
  const gc0 = gcMs
  const t0 = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    await one()
    // As a server's loop turns: timers, the observers and anything deferred get their turn.
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve))
  }
  const cpu = process.cpuUsage(t0)
  results.push({ us: (cpu.user + cpu.system) / n, gcUs: ((gcMs - gc0) * 1000) / n })
}
const steady = results.slice(Number(flags.warm)) // the first rounds fill the outbox and warm the JIT up
const mid = [...steady].sort((a, b) => a.us - b.us)[steady.length >> 1]
console.log(
  `${flags.endpoint}: ${mid.us.toFixed(2)} µs CPU per request (GC ${mid.gcUs.toFixed(2)} µs), rounds ${results.map((r) => r.us.toFixed(1)).join(' ')}; outbox ${sandbox.outbox.size}; RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`,
)
if (process.env.SPACES) {
  const { getHeapSpaceStatistics } = await import('node:v8')
  console.log(
    getHeapSpaceStatistics()
      .map((s) => `${s.space_name} ${Math.round(s.space_used_size / 2 ** 20)}/${Math.round(s.space_size / 2 ** 20)}`)
      .join(', '),
    JSON.stringify(
      Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 2 ** 20)])),
    ),
  )
}
sandbox.dispose?.()
process.exit(0)
