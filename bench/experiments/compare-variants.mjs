/**
 * Alternating A/B of server variants under the bench's load (50 connections, 2 s warm-up + 6 s,
 * `--rounds` rounds): req/s, p99, server CPU µs per request and RSS after. Variants:
 *   single          the CLI as shipped (dist/bin/sendbox.js)
 *   v8-defaults     the CLI with V8's own heap sizing (SENDBOX_V8_FLAGS='')
 *   grow-50, grow-50-semi-1, size   the CLI with other V8 flags set by its loader
 *   threads         the threaded transport, 2 threads (bench/targets/threaded-server.mjs)
 * Usage: node bench/experiments/compare-variants.mjs [--rounds N] [--variants a,b]
 */
import { parseArgs } from 'node:util'
import { measure } from '../lib/load.mjs'
import { freePort, median, rssMb, startTarget, stopTarget } from '../lib/processes.mjs'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    variants: { type: 'string', default: 'v8-defaults,grow-50,grow-50-semi-1,size' },
  },
})
const AUTH = { authorization: 'Bearer bench', 'content-type': 'application/json' }
const flags = (port) => [
  '--no-ui',
  '--port',
  String(port),
  '--subscribers',
  '1000',
  '--api-key',
  'bench:enterprise',
  '--limit',
  'enterprise=1000000',
]
const cli = (v8Flags) => ({
  args: (port) => ['dist/bin/sendbox.js', ...flags(port)],
  env: v8Flags === undefined ? process.env : { ...process.env, SENDBOX_V8_FLAGS: v8Flags },
})
const all = {
  single: cli(undefined),
  'v8-defaults': cli(''),
  'grow-50': cli('--heap-growing-percent=50'),
  'grow-50-semi-1': cli('--heap-growing-percent=50 --semi-space-growth-factor=1'),
  size: cli('--optimize-for-size'),
  threads: { args: (port) => ['bench/targets/threaded-server.mjs', '--threads', '2', ...flags(port)] },
}
const endpoints = {
  send: {
    path: '/v1/email/send',
    method: 'POST',
    body: JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' }),
  },
  list: { path: '/v1/subscribers?page=1&limit=20', method: 'GET' },
}
const results = {}
for (let round = 0; round < Number(values.rounds); round++) {
  for (const name of values.variants.split(',')) {
    const variant = all[name]
    const port = await freePort()
    const { child } = await startTarget({
      args: variant.args(port),
      port,
      readyPath: '/v1/subscribers?limit=1',
      readyHeaders: AUTH,
      env: variant.env,
    })
    for (const [endpoint, spec] of Object.entries(endpoints)) {
      const r = await measure({
        url: `http://127.0.0.1:${port}${spec.path}`,
        method: spec.method,
        headers: AUTH,
        body: spec.body,
        warmupSeconds: 2,
        seconds: 6,
        pid: child.pid,
      })
      if (r.non2xx) throw new Error(`${name} ${endpoint}: ${r.non2xx} non-2xx`)
      ;((results[name] ??= {})[endpoint] ??= []).push(r)
    }
    ;((results[name] ??= {}).rss ??= []).push(await rssMb(child.pid))
    await stopTarget(child)
  }
}
for (const [name, byEndpoint] of Object.entries(results)) {
  for (const endpoint of Object.keys(endpoints)) {
    const runs = byEndpoint[endpoint]
    const m = (f) => Math.round(median(runs.map((r) => r[f])))
    console.log(
      `${name.padEnd(15)} ${endpoint.padEnd(5)} ${m('rps')} req/s  p99 ${m('p99')} ms  process CPU ${m('cpuUsPerRequest')} µs/req`,
    )
  }
  console.log(`${name.padEnd(15)} RSS after load ${Math.round(median(byEndpoint.rss))} MB`)
}
