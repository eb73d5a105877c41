/**
 * The first requests after the CLI starts, for one or more builds of its loader (dist/bin/sendbox.js
 * and a copy of an earlier one): the three first sends' latency, medians of 8 starts alternating
 * between them. For the cost of setting V8 flags when start-up ends (Node's builtins loaded after
 * that miss their code cache; docs/decisions/cli-memory-settle.md).
 *
 *   node bench/experiments/first-requests.mjs dist/bin/sendbox.js /tmp/old-sendbox.js
 */
// time from spawn to first answered send, and the first send's own latency, alternating loaders
import { spawn } from 'node:child_process'
import { freePort } from '../lib/processes.mjs'
const bins = process.argv.slice(2)
const res = Object.fromEntries(bins.map((b) => [b, []]))
const body = JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' })
for (let round = 0; round < 8; round++)
  for (const bin of round % 2 ? [...bins].reverse() : bins) {
    const port = await freePort()
    const child = spawn(process.execPath, [bin, '--no-ui', '--port', String(port), '--api-key', 'k:pro'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await new Promise((r) => {
      let t = ''
      child.stdout.on('data', (c) => {
        t += c
        if (t.includes(String(port))) r()
      })
    })
    const times = []
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now()
      const r = await fetch(`http://127.0.0.1:${port}/v1/email/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body,
      })
      await r.text()
      times.push(performance.now() - t0)
    }
    res[bin].push(times)
    child.kill()
    await new Promise((r) => child.on('exit', r))
  }
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1]
for (const b of bins)
  console.log(
    b,
    'first',
    med(res[b].map((t) => t[0])).toFixed(1),
    'second',
    med(res[b].map((t) => t[1])).toFixed(1),
    'third',
    med(res[b].map((t) => t[2])).toFixed(1),
    'ms',
  )
