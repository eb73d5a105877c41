#!/usr/bin/env node
/**
 * The big outbox (issue 37, item 3): a sandbox of one build (`--dist DIR`, default this
 * checkout's) filled with 100,000 emails (1,000 recipients, two accounts) through the domain, then
 * timed through the same calls the routes make (median of 30): a page (`limit=20`), a `q` search,
 * a wait that matches the oldest message (by `q` and by `to`); and captures per send at a full
 * outbox (each evicting the oldest) against an empty one, both warm (see the timing below).
 *
 *   node bench/outbox-scale.mjs [--dist DIR] [--messages 100000]        (prints one JSON line)
 *   node bench/outbox-scale.mjs --compare REF [--rounds 5]               (HEAD and REF interleaved, a table)
 */
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { emailOutbox } from './lib/email-outbox.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: flags } = parseArgs({
  options: {
    dist: { type: 'string' },
    messages: { type: 'string', default: '100000' },
    compare: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    node: { type: 'string', default: 'current' },
  },
  strict: false,
})
const MESSAGES = Number(flags.messages)

if (flags.compare) {
  const { builtRef } = await import('./lib/ref-build.mjs')
  const { median } = await import('./lib/processes.mjs')
  const ref = builtRef(root, String(flags.compare))
  const nodeBin =
    flags.node === 'current'
      ? process.execPath
      : execFileSync(join(root, 'scripts/node-bin.sh'), [String(flags.node)], { encoding: 'utf8' }).trim()
  const runs = { HEAD: [], REF: [] }
  for (let round = 1; round <= Number(flags.rounds); round++) {
    for (const [id, dir] of [
      ['HEAD', root],
      ['REF', ref.dir],
    ]) {
      const out = execFileSync(
        nodeBin,
        ['--expose-gc', fileURLToPath(import.meta.url), '--dist', dir, '--messages', String(MESSAGES)],
        { encoding: 'utf8', maxBuffer: 1 << 24 },
      )
      runs[id].push(JSON.parse(out.trim().split('\n').at(-1)))
      process.stderr.write(`round ${round} ${id} ${out.trim().split('\n').at(-1)}\n`)
    }
  }
  const fields = [
    ['pageMs', 'page of 20, newest first (ms)'],
    ['searchMs', 'q search page (q="number 42", total counted) (ms)'],
    ['waitQMs', 'wait matching the oldest message by q (ms)'],
    ['waitToMs', 'wait matching the oldest message by to (ms)'],
    ['sendFullUs', 'capture at a full outbox (µs/send)'],
    ['sendEmptyUs', 'capture at an empty outbox (µs/send)'],
    ['rssMb', 'RSS with the outbox full (MB)'],
  ]
  const lines = [
    `# The big outbox: ${MESSAGES.toLocaleString('en-US')} messages, HEAD vs ${flags.compare}, ${flags.rounds} interleaved rounds (medians)`,
    '',
    `Command: \`node bench/outbox-scale.mjs ${process.argv.slice(2).join(' ')}\` · Node ${execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim()}`,
    '',
    '| measure | HEAD | REF | HEAD / REF |',
    '|---|---:|---:|---:|',
  ]
  for (const [field, label] of fields) {
    const head = median(runs.HEAD.map((r) => r[field]))
    const old = median(runs.REF.map((r) => r[field]))
    lines.push(`| ${label} | ${head.toFixed(2)} | ${old.toFixed(2)} | ${(head / old).toFixed(2)}× |`)
  }
  process.stdout.write(`${lines.join('\n')}\n`)
  process.exit(0)
}

const dist = flags.dist ?? root
const { sandbox, send } = await emailOutbox(join(dist, 'dist/src'), MESSAGES, ['bench:enterprise', 'other:enterprise'])
const [key, other] = sandbox.keys
const timeSends = (count, offset) => {
  const start = performance.now()
  for (let i = 0; i < count; i++) send(key, offset + i)
  return ((performance.now() - start) * 1000) / count
}
// Both in a steady state, over enough sends to take in their share of garbage collection. Timed
// cold, the first sends of a process measured V8 compiling the capture path (the empty figure came
// out slower than the full one); timed right after the fill, the full ones paid the fill's
// collections. Empty: 10 windows of 2,000 sends, each from a reset outbox (resets untimed), after
// one to warm up. Full: 20,000 sends, each evicting the oldest, after 10,000 untimed.
const WINDOWS = 10
const WINDOW = 2_000
const FULL_WARM = 10_000
const FULL_TIMED = 20_000
timeSends(WINDOW, 0)
let sendEmptyUs = 0
for (let w = 0; w < WINDOWS; w++) {
  await sandbox.reset()
  sendEmptyUs += timeSends(WINDOW, 0) / WINDOWS
}
await sandbox.reset()
// As many messages as the sends at a full outbox will evict, then the oldest message left after
// them, the one both waits must find: 7e48468 evicts the oldest of all, this build the oldest of
// the account holding the most, and both keep it.
const evicted = FULL_WARM + FULL_TIMED
for (let i = 0; i < evicted; i++) send(key, i)
send(other, 0, 'oldest@example.com', '<p>The very first one: zebracorn.</p>')
for (let i = evicted + 1; i < MESSAGES; i++) send(i % 10 === 0 ? other : key, i)
timeSends(FULL_WARM, MESSAGES)
const sendFullUs = timeSends(FULL_TIMED, MESSAGES + FULL_WARM)

// What the routes call: `page` where the build has it, else the whole filtered list and a slice (as the route did).
const page = (filter) =>
  typeof sandbox.outbox.page === 'function'
    ? sandbox.outbox.page(filter, undefined, 1, 20).data
    : sandbox.outbox.list(filter).slice(0, 20)
async function msOf(fn, samples = 30) {
  await fn()
  const times = []
  for (let i = 0; i < samples; i++) {
    const start = performance.now()
    await fn()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}
const result = {
  messages: sandbox.outbox.size,
  pageMs: await msOf(() => page({})),
  searchMs: await msOf(() => page({ q: 'number 42' })),
  waitQMs: await msOf(() => sandbox.outbox.waitFor({ q: 'zebracorn' }, { timeout: 1000 })),
  waitToMs: await msOf(() => sandbox.outbox.waitFor({ to: 'oldest@example.com' }, { timeout: 1000 })),
  sendFullUs,
  sendEmptyUs,
  rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
}
sandbox.dispose()
console.log(JSON.stringify(result))
process.exit(0)
