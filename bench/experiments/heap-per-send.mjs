/**
 * What one email send leaves in the heap, by kind of heap object (issue 37, item 3): a sandbox in
 * this process (the built `dist/src`, or another build's given as its directory), one warm-up send,
 * a heap snapshot, N sends through the dispatcher (the standalone server's path without the
 * socket; `deliveryMs: 1`, so every message has run its lifecycle), a second snapshot, and the
 * difference per send. The journal's 1,000 entries are in it too.
 *
 *   node --expose-gc bench/experiments/heap-per-send.mjs [N=10000] [DIST_SRC_DIR]
 */
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { writeHeapSnapshot } from 'node:v8'

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc')
const n = Number(process.argv[2] ?? 10_000)
const dir = pathToFileURL(resolve(process.argv[3] ?? new URL('../../dist/src', import.meta.url).pathname)).href
const { createSandbox } = await import(`${dir}/index.js`)
const { createDispatcher } = await import(`${dir}/http/index.js`)
const { RawHeaders, attachBufferedBody } = await import(`${dir}/http/body.js`)

const origin = 'http://127.0.0.1:3000'
const sandbox = createSandbox({
  apiKeys: ['bench:enterprise'],
  limits: { enterprise: 1_000_000 },
  deliveryMs: 1,
  baseUrl: `${origin}/v1`,
})
await sandbox.ready
const dispatch = createDispatcher(sandbox)
const body = new TextEncoder().encode(
  JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' }),
)
const raw = ['Host', '127.0.0.1:3000', 'authorization', 'Bearer bench', 'content-type', 'application/json']
const url = new URL(`${origin}/v1/email/send`)
const signal = new AbortController().signal

async function send() {
  const request = { method: 'POST', url: url.href, headers: new RawHeaders(raw), signal, clientAddress: '127.0.0.1' }
  attachBufferedBody(request, body)
  const answer = await dispatch(request, url)
  if (answer.status !== 200) throw new Error(`send answered ${answer.status}`)
}

/** Self sizes and counts by the heap object's type and name (constructor), from a snapshot. */
function summary() {
  const file = writeHeapSnapshot(join(tmpdir(), `sendbox-heap-${process.pid}.heapsnapshot`))
  const snapshot = JSON.parse(readFileSync(file, 'utf8'))
  rmSync(file)
  const fields = snapshot.snapshot.meta.node_fields
  const types = snapshot.snapshot.meta.node_types[0]
  const [type, name, size] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field))
  const kinds = new Map()
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const t = types[snapshot.nodes[i + type]]
    const named = ['object', 'closure', 'hidden', 'object shape', 'array'].includes(t)
    const kind = named ? `${t}: ${snapshot.strings[snapshot.nodes[i + name]]}` : t
    const totals = kinds.get(kind) ?? { count: 0, bytes: 0 }
    totals.count++
    totals.bytes += snapshot.nodes[i + size]
    kinds.set(kind, totals)
  }
  return kinds
}

const settle = async () => {
  await new Promise((done) => setTimeout(done, 100))
  sandbox.outbox.list({ channel: 'email' }) // runs every due lifecycle step
  globalThis.gc()
}
await send()
await settle()
const heapBefore = process.memoryUsage().heapUsed
const before = summary()
for (let i = 0; i < n; i++) await send()
await settle()
const heapAfter = process.memoryUsage().heapUsed
const after = summary()
console.log(
  `${n} sends, ${sandbox.outbox.size} messages kept: ${Math.round((heapAfter - heapBefore) / n)} bytes of live heap a send`,
)
const rows = [...after].map(([kind, { count, bytes }]) => ({
  kind,
  count: (count - (before.get(kind)?.count ?? 0)) / n,
  bytes: (bytes - (before.get(kind)?.bytes ?? 0)) / n,
}))
for (const row of rows.sort((a, b) => b.bytes - a.bytes).slice(0, 12))
  console.log(
    `${String(Math.round(row.bytes)).padStart(6)} B  ${row.count.toFixed(2).padStart(6)} a send  ${row.kind.slice(0, 70)}`,
  )
