/**
 * In-process cost: `fetch` under `setupServer(...sandbox.handlers)` against the same `fetch`
 * under `setupServer` with one bare msw handler answering the same JSON. The two servers take
 * turns (only one can intercept at a time) for several rounds; the medians are reported, the
 * ratio from CPU time per fetch (see `round`).
 * Prints one JSON line. Usage: node bench/in-process.mjs [--quick]
 */
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSandbox } from '../dist/src/index.js'
import { AUTH, SEND_BODY } from './lib/workload.mjs'

const quick = process.argv.includes('--quick')
const ROUNDS = quick ? 4 : 15
const ROUND_MS = quick ? 150 : 250
const BASE = 'https://api.sendbox.test/v1'

const sandbox = createSandbox({ apiKeys: ['bench:enterprise'], limits: { enterprise: 1_000_000 }, subscribers: 100 })
await sandbox.ready
const account = sandbox.keys[0].account
const first = sandbox.subscribers.list(account, 1, 1).data[0]
const headers = AUTH

const endpoints = {
  send: () => fetch(`${BASE}/email/send`, { method: 'POST', headers, body: SEND_BODY }),
  list: () => fetch(`${BASE}/subscribers?page=1&limit=20`, { headers }),
  byId: () => fetch(`${BASE}/subscribers/${first.id}`, { headers }),
}

// The bare handler answers what the sandbox answers, captured once up front.
const sandboxServer = setupServer(...sandbox.handlers)
sandboxServer.listen({ onUnhandledRequest: 'error' })
const answers = {}
for (const [name, call] of Object.entries(endpoints)) {
  const response = await call()
  if (response.status !== 200) throw new Error(`${name}: sandbox answered ${response.status}`)
  answers[name] = await response.json()
}
sandboxServer.close()

const bareServer = setupServer(
  http.all(`${BASE}/*`, ({ request }) => {
    const path = request.url.slice(BASE.length)
    return HttpResponse.json(
      request.method === 'POST' ? answers.send : path.startsWith('/subscribers/') ? answers.byId : answers.list,
    )
  }),
)

/**
 * One round: listen, warm up, then sequential fetches for ROUND_MS. Returns requests/s (wall)
 * and CPU µs per fetch; the ratio is taken from CPU time, which other processes on a busy
 * machine disturb far less than wall time (a sequential in-process fetch is CPU-bound).
 */
async function round(server, call) {
  server.listen({ onUnhandledRequest: 'error' })
  try {
    // A few calls first so the round measures steady state, not the listen.
    for (let i = 0; i < 20; i++) await (await call()).arrayBuffer()
    let count = 0
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    while (performance.now() - t0 < ROUND_MS) {
      const response = await call()
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`status ${response.status}`)
      count++
    }
    const cpu = process.cpuUsage(cpu0)
    return { rps: count / ((performance.now() - t0) / 1000), cpuUs: (cpu.user + cpu.system) / count }
  } finally {
    server.close()
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const result = {}
for (const [name, call] of Object.entries(endpoints)) {
  const sandboxRounds = []
  const bareRounds = []
  // One pair first, not counted: JIT warm-up of this endpoint's path.
  await round(sandboxServer, call)
  await round(bareServer, call)
  for (let i = 0; i < ROUNDS; i++) {
    sandboxRounds.push(await round(sandboxServer, call))
    bareRounds.push(await round(bareServer, call))
  }
  const sandboxCpuUs = median(sandboxRounds.map((r) => r.cpuUs))
  const bareCpuUs = median(bareRounds.map((r) => r.cpuUs))
  result[name] = {
    sandbox: median(sandboxRounds.map((r) => r.rps)),
    bare: median(bareRounds.map((r) => r.rps)),
    sandboxCpuUs,
    bareCpuUs,
    ratio: bareCpuUs / sandboxCpuUs,
  }
}
sandbox.dispose()
process.stdout.write(`${JSON.stringify(result)}\n`)
