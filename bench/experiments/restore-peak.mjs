/**
 * Restoring a big outbox from `--data` (issue 37, item 3): fills a store with `--messages` email
 * sends through HEAD's CLI (autocannon, 50 connections, `--max-messages` that keeps them all), reads
 * the live RSS once the server has settled, stops it, then restarts each build on a copy of that
 * store, interleaved round by round, and reads its peak RSS (VmHWM) once it answers and its RSS
 * a few seconds later. Every server on Node 24 (node:sqlite).
 *
 *   node bench/experiments/restore-peak.mjs [--messages 100000] [--rounds 3] [--ref DIR-of-another-build]
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { freePort, median, startTarget, stopTarget } from '../lib/processes.mjs'
import { AUTH, SEND_BODY } from '../lib/workload.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const { values: flags } = parseArgs({
  options: {
    messages: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    ref: { type: 'string' },
  },
})
const messages = Number(flags.messages)
const node24 = execFileSync(join(root, 'scripts/node-bin.sh'), ['24'], { encoding: 'utf8' }).trim()
const dir = mkdtempSync(join(tmpdir(), 'sendbox-restore-'))
const store = join(dir, 'filled.db')
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_')))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const statusMb = (pid, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024
const flagsFor = (port, data) => [
  '--no-ui',
  '--port',
  String(port),
  '--subscribers',
  '0',
  '--data',
  data,
  '--max-messages',
  String(messages),
  '--api-key',
  'bench:enterprise:bench',
  '--limit',
  'enterprise=1000000',
]
const start = async (cli, data) => {
  const port = await freePort()
  const started = await startTarget({
    command: node24,
    args: [cli, ...flagsFor(port, data)],
    port,
    readyPath: '/v1/subscribers?limit=1',
    readyHeaders: AUTH,
    env,
    timeoutMs: 300_000,
  })
  return { ...started, port }
}

try {
  const filler = await start(join(root, 'dist/bin/sendbox.js'), store)
  await new Promise((resolve, reject) =>
    autocannon(
      {
        url: `http://127.0.0.1:${filler.port}/v1/email/send`,
        method: 'POST',
        headers: AUTH,
        body: SEND_BODY,
        connections: 50,
        amount: messages,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  )
  await sleep(6_000) // the loader's settling collection runs once the loop is idle
  const live = statusMb(filler.child.pid, 'VmRSS')
  await stopTarget(filler.child)
  process.stderr.write(`filled ${messages} sends; live RSS ${live.toFixed(0)} MB\n`)
  const builds = {
    HEAD: join(root, 'dist/bin/sendbox.js'),
    ...(flags.ref ? { REF: join(flags.ref, 'dist/bin/sendbox.js') } : {}),
  }
  const runs = Object.fromEntries(Object.keys(builds).map((id) => [id, []]))
  for (let round = 1; round <= Number(flags.rounds); round++) {
    for (const [id, cli] of Object.entries(builds)) {
      const copy = join(dir, `${id}-${round}.db`)
      copyFileSync(store, copy)
      const { child, startMs } = await start(cli, copy)
      const peak = statusMb(child.pid, 'VmHWM')
      await sleep(5_000)
      const after = statusMb(child.pid, 'VmRSS')
      runs[id].push({ peak, after, startMs })
      process.stderr.write(
        `round ${round} ${id}: ready in ${Math.round(startMs)} ms, peak ${peak.toFixed(0)} MB, 5 s later ${after.toFixed(0)} MB\n`,
      )
      await stopTarget(child)
      rmSync(copy, { force: true })
    }
  }
  const lines = [
    `Restore of ${messages.toLocaleString('en-US')} email sends from --data, Node ${execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim()}; live RSS (the filling server, settled) ${live.toFixed(0)} MB`,
    '',
    '| build | ready (ms) | peak RSS (MB) | peak / live | RSS 5 s later (MB) |',
    '|---|---:|---:|---:|---:|',
  ]
  for (const [id, list] of Object.entries(runs)) {
    const peak = median(list.map((r) => r.peak))
    lines.push(
      `| ${id} | ${Math.round(median(list.map((r) => r.startMs)))} | ${peak.toFixed(0)} | ${(peak / live).toFixed(2)}× | ${median(list.map((r) => r.after)).toFixed(0)} |`,
    )
  }
  console.log(lines.join('\n'))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
