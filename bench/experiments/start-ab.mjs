/**
 * Start → first 2xx of CLI builds, A/B, interleaved: each round starts the bare node:http
 * baseline and every variant once (order reversed every other round), as the bench's start part
 * does (`--no-ui --subscribers N --api-key bench:enterprise`, first 2xx of
 * GET /v1/subscribers?limit=1). Prints per variant: median and range, the ratio to the baseline's
 * median, the median of the per-round ratios (steadier on a shared machine), the main thread's
 * CPU time to the first 2xx (Linux) and, with --rss, RSS 1 s after it.
 *
 * A variant is NAME=LOADER[,ENV=VALUE…]: a copy of dist/bin/ (with its own node_modules/.cache
 * beside, ../../node_modules from it) started with those environment variables.
 * Usage: node bench/experiments/start-ab.mjs [--rounds 21] [--subscribers 10] [--rss] NAME=LOADER …
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { freePort, median, rssMb, startTarget, stopTarget } from '../lib/processes.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '21' },
    subscribers: { type: 'string', default: '10' },
    rss: { type: 'boolean', default: false },
  },
})
const answers = join(tmpdir(), `sendbox-start-ab-${process.pid}.json`)
writeFileSync(answers, JSON.stringify({ send: '{}', list: '{"data":[]}', byId: '{}' }))
const AUTH = { authorization: 'Bearer bench' }
const baseline = {
  name: 'baseline',
  env: process.env,
  args: (port) => ['bench/targets/baseline-server.mjs', '--port', String(port), '--answers', answers],
}
const variants = [
  baseline,
  ...positionals.map((spec) => {
    const [name, rest] = [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)]
    const [loader, ...envPairs] = rest.split(',')
    const env = {
      ...process.env,
      ...Object.fromEntries(envPairs.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    }
    return {
      name,
      env,
      args: (port) => [
        loader,
        '--no-ui',
        '--port',
        String(port),
        '--subscribers',
        values.subscribers,
        '--api-key',
        'bench:enterprise',
        '--limit',
        'enterprise=1000000',
      ],
    }
  }),
]

/** CPU milliseconds of a process's main thread so far (Linux), undefined elsewhere. */
function mainThreadCpuMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return undefined
  }
}

async function once(variant) {
  const port = await freePort()
  const { child, startMs } = await startTarget({
    args: variant.args(port),
    port,
    readyPath: '/v1/subscribers?limit=1',
    readyHeaders: AUTH,
    env: variant.env,
  })
  const cpuMs = mainThreadCpuMs(child.pid)
  let rss
  if (values.rss) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    rss = await rssMb(child.pid)
  }
  await stopTarget(child)
  return { startMs, cpuMs, rss }
}

for (const variant of variants) await once(variant) // warm the file cache (and write a missing code cache)
const runs = Object.fromEntries(variants.map((v) => [v.name, []]))
const rounds = Math.max(1, Number(values.rounds) || 21)
for (let round = 0; round < rounds; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) runs[variant.name].push(await once(variant))
}
const fmt = (n) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(0))
const baseMedian = median(runs.baseline.map((r) => r.startMs))
for (const { name } of variants) {
  const start = runs[name].map((r) => r.startMs)
  const paired = start.map((ms, i) => ms / runs.baseline[i].startMs)
  const cpu = runs[name].map((r) => r.cpuMs).filter((c) => c !== undefined)
  const rss = runs[name].map((r) => r.rss).filter((r) => r !== undefined)
  process.stdout.write(
    `${name.padEnd(12)} ${fmt(median(start))} ms (${fmt(Math.min(...start))}–${fmt(Math.max(...start))}), ${(median(start) / baseMedian).toFixed(2)}× baseline, per-round ${median(paired).toFixed(2)}× (${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)}), main-thread CPU ${cpu.length ? fmt(median(cpu)) : '–'} ms${rss.length ? `, RSS ${median(rss).toFixed(1)} MB` : ''}\n`,
  )
}
