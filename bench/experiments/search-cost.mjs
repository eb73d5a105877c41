/**
 * What a `q` search costs at 100,000 messages, in-process (no HTTP): the outbox filled as
 * bench/outbox-scale.mjs fills it, then `page({ q })` with the total counted, 40 times with one q
 * and 40 times with ten different ones (no search is answered from a previous one's work but the
 * block joins, made at the first search).
 *
 *   node bench/experiments/search-cost.mjs [--dist DIR] [--messages 100000]
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { emailOutbox } from '../lib/email-outbox.mjs'

const { values: flags } = parseArgs({
  options: { dist: { type: 'string', default: process.cwd() }, messages: { type: 'string', default: '100000' } },
})
const messages = Number(flags.messages)
const { sandbox, send } = await emailOutbox(join(flags.dist, 'dist/src'), messages)
const [key] = sandbox.keys
for (let i = 0; i < messages; i++) send(key, i)
const timed = (q) => {
  const start = performance.now()
  const { total } = sandbox.outbox.page({ q: q() }, undefined, 1, 20)
  return { ms: performance.now() - start, total }
}
const medianOf = (q) => {
  const times = Array.from({ length: 40 }, () => timed(q).ms).sort((a, b) => a - b)
  return times[20].toFixed(2)
}
let i = 0
console.log(
  `${messages} messages: q="number 42" (total ${timed(() => 'number 42').total}) median ${medianOf(() => 'number 42')} ms; q="number 4N", N varying, median ${medianOf(() => `number 4${i++ % 10}`)} ms`,
)
sandbox.dispose()
process.exit(0)
