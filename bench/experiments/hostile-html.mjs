#!/usr/bin/env node
/**
 * Hostile email HTML through the public surface of a standalone CLI (docs/decisions/parse-depth.md):
 * each body is sent with `POST /v1/email/send` while a `GET /__sandbox/health` probe runs beside
 * it, then its check report is asked for. Prints the send's time, the probe's worst latency
 * meanwhile (how long the event loop was held) and the report's time and score.
 *
 *   node bench/experiments/hostile-html.mjs [--node 24] [--build DIR]
 */
import { execFileSync, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { freePort } from '../lib/processes.mjs'

const { values } = parseArgs({
  options: { node: { type: 'string', default: '24' }, build: { type: 'string', default: '.' } },
})
const root = resolve(import.meta.dirname, '../..')
const node = execFileSync(`${root}/scripts/node-bin.sh`, [values.node], { encoding: 'utf8' }).trim()
const port = await freePort()
const child = spawn(
  node,
  [
    resolve(root, values.build, 'dist/bin/sendbox.js'),
    '--no-ui',
    '--port',
    String(port),
    '--api-key',
    'k1:enterprise:acme',
    '--limit',
    'enterprise=1000000',
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
)
const base = `http://127.0.0.1:${port}`
const headers = { authorization: 'Bearer k1', 'content-type': 'application/json' }
for (let i = 0; i < 150; i++) {
  try {
    await fetch(`${base}/__sandbox/health`)
    break
  } catch {
    await new Promise((done) => setTimeout(done, 100))
  }
}
const filled = (n, unit) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)
const SIZE = 900_000
const bodies = [
  ['unclosed tables', filled(SIZE, '<table><tr><td>')],
  ['unclosed <b>', filled(SIZE, '<b>')],
  ['unclosed lists', filled(SIZE, '<ul><li>')],
  ['<p> (never deep)', filled(SIZE, '<p>')],
  ['<td> (never deep)', filled(SIZE, '<td>')],
  ['60,000 nested <div>', '<div>'.repeat(60_000) + 'x'],
  ['plain text', filled(SIZE, 'Lorem ipsum dolor sit amet. ')],
]
try {
  for (const [name, html] of bodies) {
    let worst = 0
    let stop = false
    const probe = (async () => {
      while (!stop) {
        const t = performance.now()
        await (await fetch(`${base}/__sandbox/health`)).text()
        worst = Math.max(worst, performance.now() - t)
        await new Promise((done) => setTimeout(done, 5))
      }
    })()
    const t0 = performance.now()
    const sent = await fetch(`${base}/v1/email/send`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ to: 'qa@example.com', subject: name, html }),
      signal: AbortSignal.timeout(60_000),
    })
    const { message_id: id } = await sent.json()
    const sendMs = performance.now() - t0
    stop = true
    await probe
    const t1 = performance.now()
    const report = await (await fetch(`${base}/__sandbox/messages/${id}/checks`, { headers })).json()
    const checkMs = performance.now() - t1
    console.log(
      `${name.padEnd(20)} send ${sent.status} ${sendMs.toFixed(0).padStart(5)} ms · health worst ${worst.toFixed(0).padStart(5)} ms · checks ${checkMs.toFixed(0).padStart(6)} ms, score ${report.score}`,
    )
  }
} finally {
  child.kill('SIGTERM')
}
