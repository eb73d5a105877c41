/**
 * In-process cost: `fetch` under `setupServer(...sandbox.handlers)` against the same `fetch`
 * under `setupServer` with one bare msw handler answering the same JSON. The two servers take
 * turns (only one can intercept at a time) for several rounds; the medians are reported.
 * Prints one JSON line. Usage: node bench/in-process.mjs [--quick]
 */
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSandbox } from '../dist/src/index.js'

const quick = process.argv.includes('--quick')
const ROUNDS = quick ? 3 : 7
const ROUND_MS = quick ? 250 : 500
const BASE = 'https://api.sendbox.test/v1'

const sandbox = createSandbox({ apiKeys: ['bench:enterprise'], limits: { enterprise: 1_000_000 }, subscribers: 100 })
await sandbox.ready
const account = sandbox.keys[0].account
const first = sandbox.subscribers.list(account, 1, 1).data[0]
const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' }
const sendBody = JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' })

const endpoints = {
  send: () => fetch(`${BASE}/email/send`, { method: 'POST', headers, body: sendBody }),
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
    return HttpResponse.json(request.method === 'POST' ? answers.send : path.startsWith('/subscribers/') ? answers.byId : answers.list)
  }),
)

async function round(server, call) {
  server.listen({ onUnhandledRequest: 'error' })
  try {
    // A few calls first so the round measures steady state, not the listen.
    for (let i = 0; i < 20; i++) await (await call()).arrayBuffer()
    let count = 0
    const t0 = performance.now()
    while (performance.now() - t0 < ROUND_MS) {
      const response = await call()
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`status ${response.status}`)
      count++
    }
    return count / ((performance.now() - t0) / 1000)
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
  const sandboxRates = []
  const bareRates = []
  const ratios = []
  for (let i = 0; i < ROUNDS; i++) {
    const s = await round(sandboxServer, call)
    const b = await round(bareServer, call)
    sandboxRates.push(s)
    bareRates.push(b)
    ratios.push(s / b)
  }
  result[name] = { sandbox: median(sandboxRates), bare: median(bareRates), ratio: median(ratios) }
}
sandbox.dispose()
process.stdout.write(`${JSON.stringify(result)}\n`)
