/**
 * Measures the worker-thread experiment (worker-http.mjs) against the shipped node:http adapter,
 * alternately, with the bench's load (50 connections) but shorter runs: 2 s warm-up + 6 s, 2 rounds.
 * Usage: node bench/experiments/compare-worker.mjs
 */
import { measure } from '../lib/load.mjs'
import { freePort, median, startTarget, stopTarget } from '../lib/processes.mjs'

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
const variants = {
  'node:http adapter': (port) => ['dist/bin/sendbox.js', ...flags(port)],
  'worker thread for HTTP': (port) => ['bench/experiments/worker-http.mjs', ...flags(port)],
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
for (let round = 0; round < 2; round++) {
  for (const [name, args] of Object.entries(variants)) {
    const port = await freePort()
    const { child } = await startTarget({
      args: args(port),
      port,
      readyPath: '/v1/subscribers?limit=1',
      readyHeaders: AUTH,
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
    await stopTarget(child)
  }
}
for (const [name, byEndpoint] of Object.entries(results)) {
  for (const [endpoint, runs] of Object.entries(byEndpoint)) {
    const m = (f) => Math.round(median(runs.map((r) => r[f])))
    console.log(
      `${name.padEnd(24)} ${endpoint.padEnd(5)} ${m('rps')} req/s  p99 ${m('p99')} ms  process CPU ${m('cpuUsPerRequest')} µs/req`,
    )
  }
}
