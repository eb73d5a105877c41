/**
 * Import cost: `import('sendbox')` and `import('msw')` in fresh node processes, interleaved,
 * median of N. Each child times its own `await import(...)` (process start excluded). The
 * sendbox child then times what the first uses load lazily: the first subscriber (@msw/data)
 * and the first email send through msw's `getResponse` (extraction). Prints one JSON line.
 * Usage: node bench/import.mjs [--samples N] [--quick]
 */
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { median } from './lib/processes.mjs'

const { values } = parseArgs({
  options: { samples: { type: 'string', default: '9' }, quick: { type: 'boolean', default: false } },
})
const samples = values.quick ? 3 : Math.max(1, Number(values.samples) || 9)

const mswChild = `
const t0 = performance.now()
await import('msw')
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, rssMb: process.memoryUsage().rss / 2 ** 20 }) + '\\n')
`
// The package's own name resolves through its "exports" (self-reference), as a user's import does.
const sendboxChild = `
const t0 = performance.now()
const { createSandbox } = await import('sendbox')
const ms = performance.now() - t0
const rssMb = process.memoryUsage().rss / 2 ** 20
const { getResponse } = await import('msw')
const sandbox = createSandbox({ baseUrl: 'https://api.example.com/v1' })
await sandbox.ready
const t1 = performance.now()
await sandbox.subscribers.create('test', { email: 'ana@example.com' })
const firstSubscriberMs = performance.now() - t1
const t2 = performance.now()
const response = await getResponse(sandbox.handlers, new Request('https://api.example.com/v1/email/send', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + sandbox.keys[0].key, 'content-type': 'application/json' },
  body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<h1>Hello</h1><p>Your code is 123456</p>' }),
}))
if (!response || response.status !== 200) throw new Error('first send answered ' + response?.status)
const firstSendMs = performance.now() - t2
sandbox.dispose()
process.stdout.write(JSON.stringify({ ms, rssMb, firstSubscriberMs, firstSendMs }) + '\\n')
`
function once(source) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`import child failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop())
}

const runs = { sendbox: [], msw: [] }
once(mswChild) // warm the file system cache
once(sendboxChild)
for (let i = 0; i < samples; i++) {
  runs.msw.push(once(mswChild))
  runs.sendbox.push(once(sendboxChild))
}
const m = (list, field) => median(list.map((r) => r[field]))
process.stdout.write(
  `${JSON.stringify({
    samples,
    sendboxMs: m(runs.sendbox, 'ms'),
    mswMs: m(runs.msw, 'ms'),
    ratio: m(runs.sendbox, 'ms') / m(runs.msw, 'ms'),
    sendboxRssMb: m(runs.sendbox, 'rssMb'),
    mswRssMb: m(runs.msw, 'rssMb'),
    firstSubscriberMs: m(runs.sendbox, 'firstSubscriberMs'),
    firstSendMs: m(runs.sendbox, 'firstSendMs'),
  })}\n`,
)
