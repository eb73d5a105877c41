/**
 * Scale, in-process on the domain, in two phases (each in its own process, so one's memory
 * does not hide the other's):
 * - `subscribers`: 100,000 subscribers in one account — µs per GET by id, list page 1 and
 *   list page 5,000 — and the RSS they take;
 * - `sends`: 1,000,000 sends through the calls the email handler makes (capture + journal),
 *   RSS before and after (the outbox and journal caps must keep it flat).
 * Prints one JSON line. Usage: node --expose-gc bench/scale.mjs subscribers|sends [--quick]
 */
import { emailChannel } from '../dist/src/domain/channels/index.js'
import { maskKey } from '../dist/src/domain/plans.js'
import { createSandbox } from '../dist/src/index.js'

const phase = process.argv[2]
const quick = process.argv.includes('--quick')
const gc = globalThis.gc ?? (() => {})
const rssMb = () => process.memoryUsage().rss / 1024 / 1024
const settle = () => {
  gc()
  gc()
  return rssMb()
}

const sandbox = createSandbox({ apiKeys: ['bench:enterprise'], limits: { enterprise: 1_000_000 } })
await sandbox.ready
const key = sandbox.keys[0]
const account = key.account

/** µs per call: the median of 5 timed batches, after a warm-up batch. */
function microsPerCall(batch, fn) {
  const times = []
  for (let round = 0; round < 6; round++) {
    const start = performance.now()
    for (let i = 0; i < batch; i++) fn(i)
    if (round > 0) times.push(((performance.now() - start) * 1000) / batch)
  }
  times.sort((a, b) => a - b)
  return times[2]
}

async function subscribersPhase() {
  const SUBSCRIBERS = 100_000
  const rssEmpty = settle()
  const t0 = performance.now()
  const ids = []
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const created = await sandbox.subscribers.create(account, {
      email: `user${i}@example.com`,
      phone: i % 2 ? `+1415${String(i).padStart(7, '0')}` : null,
      first_name: `User ${i}`,
      tags: i % 3 ? ['newsletter'] : [],
    })
    ids.push(created.id)
  }
  const seedMs = performance.now() - t0
  const rssLoaded = settle()
  let sink = 0
  const byIdUs = microsPerCall(20_000, (i) => {
    sink += sandbox.subscribers.get(account, ids[(i * 7919) % ids.length]).id.length
  })
  const page1Us = microsPerCall(5_000, () => {
    sink += sandbox.subscribers.list(account, 1, 20).data.length
  })
  const lastPage = SUBSCRIBERS / 20
  const pageLastUs = microsPerCall(5_000, () => {
    sink += sandbox.subscribers.list(account, lastPage, 20).data.length
  })
  const lastPageSize = sandbox.subscribers.list(account, lastPage, 20).data.length
  return {
    subscribers: SUBSCRIBERS,
    seedMs,
    rssEmpty,
    rssLoaded,
    byIdUs,
    page1Us,
    lastPage,
    lastPageSize,
    pageLastUs,
    sink,
  }
}

function sendsPhase() {
  const SENDS = quick ? 200_000 : 1_000_000
  const rssBefore = settle()
  const body = { to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' }
  const retryAfter = () => 1
  const masked = maskKey(key.key)
  let peak = rssBefore
  const s0 = performance.now()
  for (let i = 0; i < SENDS; i++) {
    const raw = { ...body, html: `<p>Hi Ana, this is message number ${i}.</p>` }
    sandbox.outbox.capture(emailChannel.capture(key, raw, raw, retryAfter))
    sandbox.journal.record({
      at: new Date().toISOString(),
      kind: 'api',
      method: 'POST',
      path: '/v1/email/send',
      status: 200,
      duration_ms: 0.1,
      error_code: null,
      account,
      key: masked,
    })
    if (i % 50_000 === 0) peak = Math.max(peak, rssMb())
  }
  const sendsMs = performance.now() - s0
  const rssAfter = settle()
  return {
    sends: SENDS,
    sendUs: (sendsMs * 1000) / SENDS,
    rssBefore,
    rssAfter,
    rssPeak: Math.max(peak, rssAfter),
    outboxSize: sandbox.outbox.size,
    outboxCap: sandbox.outbox.capacity,
    journalSize: sandbox.journal.size,
  }
}

let result
if (phase === 'subscribers') result = await subscribersPhase()
else if (phase === 'sends') result = sendsPhase()
else throw new Error('usage: node --expose-gc bench/scale.mjs subscribers|sends [--quick]')
sandbox.dispose()
process.stdout.write(`${JSON.stringify(result)}\n`)
