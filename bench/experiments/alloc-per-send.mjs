/**
 * Bytes allocated per email send (garbage included), by allocating function: the sampling heap
 * profiler over 20,000 sends through a build's dispatcher (no sockets), after 30,000 to warm up
 * and fill the outbox; lifecycle steps kept out (`deliveryMs` an hour). Works on 7e48468's layout
 * too (its dispatcher lived in handlers/). Issue 37, third round: 8,051 → 6,532 bytes a send.
 *
 *   node bench/experiments/alloc-per-send.mjs DIST_SRC_DIR     e.g. dist/src, .bench-ref/<sha>/dist/src
 *   TOP=40 SI=512 node bench/experiments/alloc-per-send.mjs …  (rows shown; sampling interval, bytes)
 */
import { existsSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
const dir = (await import('node:path')).resolve(process.argv[2])
const body = new TextEncoder().encode(
  JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' }),
)
const raw = [
  'Host',
  '127.0.0.1:3000',
  'authorization',
  'Bearer bench',
  'content-type',
  'application/json',
  'Content-Length',
  String(body.length),
]
const sendUrl = new URL('http://127.0.0.1:3000/v1/email/send')
const signal = new AbortController().signal
const old = existsSync(`${dir}/../handlers/index.js`)
const { createSandbox } = await import(`${dir}/index.js`)
const { createDispatcher } = await import(old ? `${dir}/../handlers/index.js` : `${dir}/http/index.js`)
const { RawHeaders, attachBufferedBody, bodyOf, forEachAnswerHeader, pushAnswerHeaders } = await import(
  old ? `${dir}/../handlers/body.js` : `${dir}/http/body.js`
)
const sandbox = createSandbox({
  apiKeys: ['bench:enterprise'],
  limits: { enterprise: 1_000_000 },
  subscribers: 1000,
  deliveryMs: 3_600_000,
  baseUrl: 'http://127.0.0.1:3000/v1',
})
await sandbox.ready
const dispatch = createDispatcher(sandbox)
async function one() {
  const req = { method: 'POST', url: sendUrl.href, headers: new RawHeaders(raw), signal, clientAddress: '127.0.0.1' }
  attachBufferedBody(req, body)
  const a = await dispatch(req, sendUrl)
  const h = []
  if (pushAnswerHeaders) pushAnswerHeaders(a, h)
  else forEachAnswerHeader(a, (n, v) => h.push(n, v))
  return bodyOf(a).length
}
for (let i = 0; i < 30000; i++) await one()
const s = new Session()
s.connect()
await s.post('HeapProfiler.startSampling', {
  samplingInterval: Number(process.env.SI ?? 512),
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
})
const N = 20000
for (let i = 0; i < N; i++) await one()
const { profile } = await s.post('HeapProfiler.stopSampling')
const by = new Map()
let total = 0
const walk = (n) => {
  const self = n.selfSize
  total += self
  const f = n.callFrame
  const k = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`
  by.set(k, (by.get(k) ?? 0) + self)
  n.children.forEach(walk)
}
walk(profile.head)
console.log('bytes allocated per send', (total / N).toFixed(0))
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25)))
  console.log(String(Math.round(v / N)).padStart(6), k)
process.exit(0)
