#!/usr/bin/env node
/**
 * The cost of `--data` (issue 24): the built CLI under Node 24 (node:sqlite), in one run,
 * - send throughput (POST /v1/email/send, 50 connections) in memory and with `--data`, alternated
 *   over `--runs` rounds (medians): target ≥ 70 % of memory;
 * - start time (spawn → first 2xx) on an empty store and on a store holding 10,000 messages,
 *   medians of `--starts`: target ≤ 2×;
 * - the store's size after the 10,000 messages.
 * Prints JSON lines; the last one is what `npm run bench` reads.
 *
 *   node bench/persistence.mjs [--runs 3] [--seconds 10] [--starts 7]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { measure } from './lib/load.mjs'
import { freePort, median, postText, startTarget, stopTarget } from './lib/processes.mjs'
import { AUTH, SEND_BODY, sandboxFlags } from './lib/workload.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    starts: { type: 'string', default: '7' },
  },
})
const node24 = execFileSync(join(root, 'scripts/node-bin.sh'), ['24'], { encoding: 'utf8' }).trim()
const cli = join(root, 'dist/bin/sendbox.js')
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_')))
const dir = mkdtempSync(join(tmpdir(), 'sendbox-bench-data-'))
const log = (line) => process.stderr.write(`${line}\n`)

async function start(extra, subscribers = 100) {
  const port = await freePort()
  const target = await startTarget({
    command: node24,
    args: [cli, ...sandboxFlags(port, subscribers), '--delivery-ms', '0', ...extra],
    port,
    readyPath: '/__sandbox/health',
    env,
  })
  return { ...target, port }
}

async function throughput(extra) {
  const { child, port } = await start(extra)
  try {
    const result = await measure({
      url: `http://127.0.0.1:${port}/v1/email/send`,
      method: 'POST',
      headers: AUTH,
      body: SEND_BODY,
      warmupSeconds: 2,
      seconds: Number(flags.seconds),
      pid: child.pid,
    })
    return result.rps
  } finally {
    await stopTarget(child)
  }
}

const memory = []
const stored = []
for (let run = 0; run < Number(flags.runs); run++) {
  // Alternated, each with a fresh store: the machine's noise falls on both alike.
  const file = join(dir, `throughput-${run}.db`)
  memory.push(await throughput([]))
  stored.push(await throughput(['--data', file]))
  log(
    `persistence: run ${run + 1}: memory ${Math.round(memory.at(-1))} req/s, --data ${Math.round(stored.at(-1))} req/s`,
  )
  rmSync(file, { force: true })
}

// A store holding 10,000 messages (the default cap), then start times against an empty one.
const full = join(dir, 'full.db')
{
  const { child, port } = await start(['--data', full], 0)
  for (let i = 0; i < 10_000; i += 100)
    await Promise.all(Array.from({ length: 100 }, () => postText(port, '/v1/email/send', AUTH, SEND_BODY)))
  await stopTarget(child)
}
const startMs = async (extra) => {
  const { child, startMs: ms } = await start(extra, 0)
  await stopTarget(child)
  return ms
}
const emptyStarts = []
const fullStarts = []
for (let i = 0; i < Number(flags.starts); i++) {
  const empty = join(dir, `empty-${i}.db`)
  emptyStarts.push(await startMs(['--data', empty]))
  fullStarts.push(await startMs(['--data', full]))
}
const result = {
  node: execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim(),
  memoryRps: Math.round(median(memory)),
  dataRps: Math.round(median(stored)),
  ratio: Math.round((median(stored) / median(memory)) * 100) / 100,
  emptyStartMs: Math.round(median(emptyStarts)),
  fullStartMs: Math.round(median(fullStarts)),
  startRatio: Math.round((median(fullStarts) / median(emptyStarts)) * 100) / 100,
  storeMb: Math.round((statSync(full).size / 1024 / 1024) * 10) / 10,
}
rmSync(dir, { recursive: true, force: true })
console.log(JSON.stringify({ results: result }))
