#!/usr/bin/env node
/**
 * Issue 36, R3 as a user meets it: the built CLI, W held waits (default 1,000) each with a different
 * worst-case `q` (500 × "a", then "b" and a number), one email of 1,048,000 "a", and a health check
 * asked in a loop while the send runs and for 3 s after. Prints the send's time and the longest
 * health check (the target: ≤ 100 ms). Extra CLI flags after `--` (e.g. `-- --data /tmp/q.db`).
 *
 *   node bench/q-flood.mjs [dist/bin/sendbox.js] [-- --data FILE]      (W=0 for no waiter)
 */
import { spawn } from 'node:child_process'

const args = process.argv.slice(2)
const split = args.indexOf('--')
const cli = (split === -1 ? args : args.slice(0, split))[0] ?? 'dist/bin/sendbox.js'
const extra = split === -1 ? [] : args.slice(split + 1)
const W = Number(process.env.W ?? 1000)
const child = spawn(
  process.execPath,
  [cli, '--port', '0', '--no-ui', '--delivery-ms', '0', '--max-waiters', String(Math.max(W, 1000)), ...extra],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
let out = ''
const port = await new Promise((resolve) =>
  child.stdout.on('data', (d) => {
    out += d
    const m = /listening on http:\/\/\S+?:(\d+)\/v1/.exec(out)
    if (m) resolve(m[1])
  }),
)
const base = `http://127.0.0.1:${port}`
const controller = new AbortController()
for (let i = 0; i < W; i++)
  fetch(`${base}/__sandbox/messages/wait?timeout=60000&q=${'a'.repeat(500)}b${i}`, { signal: controller.signal }).catch(
    () => 0,
  )
for (;;) {
  const health = await (await fetch(`${base}/__sandbox/health`)).json()
  if (health.waiters >= W) break
  await new Promise((resolve) => setTimeout(resolve, 50))
}
const t0 = performance.now()
let sendMs
const sending = fetch(`${base}/v1/email/send`, {
  method: 'POST',
  headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
  body: JSON.stringify({ to: 'ana@example.com', subject: 'big', html: `<p>${'a'.repeat(1048000)}</p>` }),
}).then((r) => {
  sendMs = performance.now() - t0
  return r.status
})
let max = 0
let count = 0
while (!(sendMs !== undefined && performance.now() - t0 > sendMs + 3000)) {
  const s = performance.now()
  await fetch(`${base}/__sandbox/health`)
  max = Math.max(max, performance.now() - s)
  count++
}
console.log(
  JSON.stringify({
    waits: W,
    send_status: await sending,
    send_ms: Math.round(sendMs),
    health_checks: count,
    max_health_ms: Math.round(max),
  }),
)
controller.abort()
child.kill()
process.exit(0)
