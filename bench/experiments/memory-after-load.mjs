/**
 * Where the RSS after load goes: starts memory-probe-server.mjs (the bench's flags, 1,000
 * subscribers), reads its breakdown idle, after each endpoint's load (autocannon, 50
 * connections, 3 s + 10 s), after 10 s idle, and after a full GC.
 * Usage: node bench/experiments/memory-after-load.mjs [--threads N] [-- node flags for the server]
 */
import { fork } from 'node:child_process'
import { measure } from '../lib/load.mjs'
import { freePort } from '../lib/processes.mjs'

const args = process.argv.slice(2)
const dash = args.indexOf('--')
const nodeFlags = dash === -1 ? [] : args.slice(dash + 1)
const own = dash === -1 ? args : args.slice(0, dash)
const port = await freePort()
const child = fork(
  new URL('./memory-probe-server.mjs', import.meta.url),
  [
    ...own,
    '--no-ui',
    '--port',
    String(port),
    '--subscribers',
    '1000',
    '--api-key',
    'bench:enterprise',
    '--limit',
    'enterprise=1000000',
  ],
  { execArgv: ['--expose-gc', ...nodeFlags], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
)
const next = () => new Promise((resolve) => child.once('message', resolve))
await next()
const ask = async (label, what = 'report') => {
  child.send(what)
  const r = await next()
  console.log(
    `${label.padEnd(22)} rss ${r.rss}  heap ${r.heapUsed}/${r.heapTotal}  external ${r.external} (buffers ${r.arrayBuffers})  new ${r.spaces.new.used}/${r.spaces.new.size}  old ${r.spaces.old.used}/${r.spaces.old.size}  code ${r.spaces.code.size}  lo ${r.spaces.large_object.size}  outbox ${r.outbox}`,
  )
  if (r.requests)
    console.log(
      `${''.padEnd(22)} GC so far: ${Object.entries(r.gc)
        .map(([k, v]) => `${k} ${v.count}× ${Math.round(v.ms)} ms`)
        .join(
          ', ',
        )}; ${r.requests} requests → ${Math.round((Object.values(r.gc).reduce((a, v) => a + v.ms, 0) * 1000) / r.requests)} µs GC per request`,
    )
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
await sleep(1000)
await ask('idle')
const AUTH = { authorization: 'Bearer bench', 'content-type': 'application/json' }
const loads = [
  [
    'send',
    {
      url: `http://127.0.0.1:${port}/v1/email/send`,
      method: 'POST',
      body: JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' }),
    },
  ],
  ['list', { url: `http://127.0.0.1:${port}/v1/subscribers?page=1&limit=20` }],
]
for (const [name, spec] of loads) {
  const r = await measure({ ...spec, headers: AUTH, connections: 50, warmupSeconds: 3, seconds: 10 })
  await ask(`after ${name} (${Math.round(r.rps)}/s)`)
}
await sleep(10_000)
await ask('10 s idle')
await ask('after full GC', 'gc')
await sleep(3000)
await ask('3 s after GC')
child.kill('SIGTERM')
