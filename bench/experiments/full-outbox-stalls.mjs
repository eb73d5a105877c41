/**
 * Sends at a full outbox, through the domain (capture only, `deliveryMs` 0): an outbox of CAP
 * emails is filled, then SENDS more are captured, each evicting the oldest. Prints µs per send, the
 * four slowest sends and how many took over 5 ms, and the id index's rebuilds (how often, and how
 * long each held its send). Issue 37, 2026-11-28: what a rebuild held a send before and after it
 * rebuilt from the hashes the table keeps is in src/domain/id-index.ts and docs/performance.md.
 *
 *   node bench/experiments/full-outbox-stalls.mjs [DIST_SRC_DIR] [CAP] [SENDS]
 *     e.g. dist/src 100000 200000, or .bench-ref/<dir>/dist/src 10000 400000
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { emailOutbox } from '../lib/email-outbox.mjs'

const dir = resolve(process.argv[2] ?? 'dist/src')
const CAP = Number(process.argv[3] ?? 100_000)
const SENDS = Number(process.argv[4] ?? 200_000)
const { IdIndex } = await import(pathToFileURL(`${dir}/domain/id-index.js`).href)

// The rebuild is private: timed by wrapping it on the prototype (it is a plain method in the build).
const rebuilds = []
const rebuild = IdIndex.prototype.rebuild
IdIndex.prototype.rebuild = function (wanted) {
  const start = performance.now()
  rebuild.call(this, wanted)
  rebuilds.push(performance.now() - start)
}

const { sandbox, send: sendAs } = await emailOutbox(dir, CAP)
const [key] = sandbox.keys
let n = 0
const send = () => sendAs(key, n++)
while (sandbox.outbox.size < CAP) send()
rebuilds.length = 0

const took = new Float64Array(SENDS)
const start = performance.now()
for (let i = 0; i < SENDS; i++) {
  const t = performance.now()
  send()
  took[i] = performance.now() - t
}
const total = performance.now() - start
const slowest = [...took].sort((a, b) => b - a)
console.log(
  JSON.stringify({
    cap: CAP,
    sends: SENDS,
    usPerSend: +((total * 1000) / SENDS).toFixed(2),
    slowestMs: slowest.slice(0, 4).map((ms) => +ms.toFixed(1)),
    over5ms: slowest.filter((ms) => ms > 5).length,
    rebuilds: rebuilds.length,
    sendsPerRebuild: rebuilds.length ? Math.round(SENDS / rebuilds.length) : null,
    rebuildMs: rebuilds.map((ms) => +ms.toFixed(1)),
  }),
)
sandbox.dispose()
process.exit(0)
