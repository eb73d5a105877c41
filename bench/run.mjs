#!/usr/bin/env node
/**
 * `npm run bench`: builds if needed, then in one run measures the compiled standalone server
 * (headless), the express + http-middleware variant, a bare node:http baseline answering the
 * same JSON and the MSW floor (node:http + msw `getResponse` + one fixed handler); then
 * in-process fetch and domain scale. Prints one table and writes it to bench/results/latest.md.
 *
 * Flags: --quick (short runs, for trying the script), --runs N (repeat the throughput runs and
 * report medians), --no-express, --out FILE, --only throughput,start,inprocess,scale (a part
 * of the run, for iterating; the table then shows only those parts), --targets sendbox,floor
 * (a subset of the servers; ratios need floor and baseline).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem, release, platform } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { measure } from './lib/load.mjs'
import { freePort, getText, median, postText, rssMb, runJsonScript, startTarget, stopTarget } from './lib/processes.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    'no-express': { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results/latest.md' },
    only: { type: 'string', default: 'throughput,start,inprocess,scale' },
    targets: { type: 'string', default: 'sendbox,express,floor,baseline' },
  },
})
const quick = flags.quick
const runs = Math.max(1, Number(flags.runs) || 1)
const WARMUP_S = quick ? 1 : 3
const MEASURE_S = quick ? 2 : 10
const CONNECTIONS = 50
const START_SAMPLES = quick ? 3 : 7
const SUBSCRIBERS = 1000
const parts = new Set(flags.only.split(','))

const log = (line) => process.stderr.write(`${line}\n`)
const wallStart = performance.now()

// ---------------------------------------------------------------------------------------------
// Build if needed: the bench measures the compiled server, as a user runs it.
function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path))
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}
const BUILT = ['dist/bin/sendbox.js', ...(existsSync('scripts/cli-loader.mjs') ? ['dist/bin/sendbox.cjs'] : []), 'dist/src/server/express-app.js']
const sourceMtime = Math.max(
  ...['src', 'handlers', 'bin', 'fixtures'].map(newestMtime),
  ...['scripts/bundle.mjs', 'scripts/cli-loader.mjs'].filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs),
)
const builtMtime = Math.min(...BUILT.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)))
// A plain `tsc` leaves the unbundled entry behind; the bench measures what `npm run build` makes.
const bundled = !existsSync('scripts/cli-loader.mjs') || (existsSync(BUILT[0]) && readFileSync(BUILT[0], 'utf8').includes('sendbox.cjs'))
if (builtMtime < sourceMtime || !bundled) {
  log('building (dist is missing or older than the sources)…')
  const built = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}

// ---------------------------------------------------------------------------------------------
const AUTH = { authorization: 'Bearer bench', 'content-type': 'application/json' }
const SEND_BODY = JSON.stringify({ to: 'ana@example.com', subject: 'Hello', html: '<p>Hi Ana</p>' })
const sandboxFlags = (port, subscribers = SUBSCRIBERS) => [
  '--no-ui', '--port', String(port), '--subscribers', String(subscribers),
  '--api-key', 'bench:enterprise', '--limit', 'enterprise=1000000',
]
const READY_PATH = '/v1/subscribers?limit=1'

/** The servers, each started alone. `args(port)` is what follows `node`. */
const allTargets = [
  { id: 'sendbox', label: 'sendbox (node:http adapter)', args: (port, subs) => ['dist/bin/sendbox.js', ...sandboxFlags(port, subs)] },
  ...(flags['no-express'] ? [] : [{ id: 'express', label: 'sendbox (express 5 + http-middleware)', args: (port, subs) => ['bench/targets/express-server.mjs', ...sandboxFlags(port, subs)] }]),
  { id: 'floor', label: 'MSW floor (node:http + getResponse + 1 fixed handler)', args: (port) => ['bench/targets/msw-floor-server.mjs', '--port', String(port), '--answers', answersFile] },
  { id: 'baseline', label: 'bare node:http (same JSON)', args: (port) => ['bench/targets/baseline-server.mjs', '--port', String(port), '--answers', answersFile] },
]

const targets = allTargets.filter((t) => flags.targets.split(',').includes(t.id))
const has = (id) => targets.some((t) => t.id === id)

// Capture the sandbox's answers (and a real subscriber id) for the bare targets to replay.
const answersFile = join(tmpdir(), `sendbox-bench-answers-${process.pid}.json`)
let subscriberId
{
  const port = await freePort()
  const { child } = await startTarget({ args: allTargets[0].args(port), port, readyPath: READY_PATH, readyHeaders: AUTH })
  try {
    const list = await getText(port, '/v1/subscribers?page=1&limit=20', AUTH)
    subscriberId = JSON.parse(list.text).data[0].id
    const byId = await getText(port, `/v1/subscribers/${subscriberId}`, AUTH)
    const send = await postText(port, '/v1/email/send', AUTH, SEND_BODY)
    if (list.status !== 200 || byId.status !== 200 || send.status !== 200) throw new Error(`sample answers: ${list.status} ${byId.status} ${send.status}`)
    writeFileSync(answersFile, JSON.stringify({ send: send.text, list: list.text, byId: byId.text }))
  } finally {
    await stopTarget(child)
  }
}

const endpoints = [
  { id: 'send', label: 'POST /v1/email/send', path: '/v1/email/send', method: 'POST', body: SEND_BODY },
  { id: 'list', label: 'GET /v1/subscribers?page=1&limit=20', path: '/v1/subscribers?page=1&limit=20', method: 'GET' },
  { id: 'byId', label: 'GET /v1/subscribers/{id}', path: () => `/v1/subscribers/${subscriberId}`, method: 'GET' },
]

// ---------------------------------------------------------------------------------------------
// Throughput, latency and memory: each target alone, every endpoint, `runs` times.
const load = {} // load[target][endpoint] = [result per run]
const memory = {} // memory[target] = { idle: [], afterLoad: [] }
for (let run = 0; parts.has('throughput') && run < runs; run++) {
  for (const target of targets) {
    const port = await freePort()
    const { child } = await startTarget({ args: target.args(port), port, readyPath: READY_PATH, readyHeaders: AUTH })
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const mem = (memory[target.id] ??= { idle: [], afterLoad: [] })
      mem.idle.push(await rssMb(child.pid))
      for (const endpoint of endpoints) {
        const path = typeof endpoint.path === 'function' ? endpoint.path() : endpoint.path
        log(`run ${run + 1}/${runs}  ${target.id.padEnd(8)}  ${endpoint.label}`)
        const result = await measure({
          url: `http://127.0.0.1:${port}${path}`,
          method: endpoint.method,
          headers: AUTH,
          body: endpoint.body,
          connections: CONNECTIONS,
          warmupSeconds: WARMUP_S,
          seconds: MEASURE_S,
          pid: child.pid,
        })
        if (result.non2xx > 0 || result.errors > 0) log(`  warning: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
        ;((load[target.id] ??= {})[endpoint.id] ??= []).push(result)
      }
      mem.afterLoad.push(await rssMb(child.pid))
    } finally {
      await stopTarget(child)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Start to first 2xx (a real API call, so seeding is included), default seed data, median of N.
const starts = {}
const idleDefault = {}
const startVariants = [
  ...targets.map((target) => ({ id: target.id, args: target.args, env: process.env })),
  // The first start after an install pays for compiling the bundle: no code cache yet.
  ...(has('sendbox') ? [{ id: 'sendbox-cold', args: targets.find((t) => t.id === 'sendbox').args, env: { ...process.env, SENDBOX_NO_COMPILE_CACHE: '1' } }] : []),
]
for (let i = 0; parts.has('start') && i < START_SAMPLES; i++) {
  for (const variant of startVariants) {
    const port = await freePort()
    const { child, startMs } = await startTarget({ args: variant.args(port, 10), port, readyPath: READY_PATH, readyHeaders: AUTH, env: variant.env })
    ;(starts[variant.id] ??= []).push(startMs)
    if (i === 0) {
      // Idle RSS as a user starts it: default seed data (10 subscribers per account), one request served.
      await new Promise((resolve) => setTimeout(resolve, 1000))
      idleDefault[variant.id] = await rssMb(child.pid)
    }
    await stopTarget(child)
  }
}
log('start-up measured')

// ---------------------------------------------------------------------------------------------
let inProcess
if (parts.has('inprocess')) {
  log('in-process fetch…')
  inProcess = await runJsonScript(['bench/in-process.mjs', ...(quick ? ['--quick'] : [])])
}
let scaleSubscribers
let scaleSends
if (parts.has('scale')) {
  log('scale: 100,000 subscribers…')
  scaleSubscribers = await runJsonScript(['--expose-gc', 'bench/scale.mjs', 'subscribers', ...(quick ? ['--quick'] : [])], { timeoutMs: 300_000 })
  log('scale: sends…')
  scaleSends = await runJsonScript(['--expose-gc', 'bench/scale.mjs', 'sends', ...(quick ? ['--quick'] : [])], { timeoutMs: 300_000 })
}

// ---------------------------------------------------------------------------------------------
// The table.
const med = (target, endpoint, field) => median(load[target][endpoint].map((r) => r[field]))
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const pct = (n) => `${fmt(n * 100)}%`
const pass = (ok) => (ok ? 'yes' : '**no**')
const cpuOf = (target, endpoint) => {
  const list = load[target][endpoint].map((r) => r.cpuUsPerRequest).filter((v) => v !== undefined)
  return list.length ? fmt(median(list)) : '–'
}
const ratioTo = (value, target, endpoint) => (has(target) ? pct(value / med(target, endpoint, 'rps')) : '–')

const lines = []
const cpu = cpus()[0]?.model ?? 'unknown CPU'
lines.push('# sendbox benchmark')
lines.push('')
lines.push(`Run ${new Date().toISOString()} · ${cpu} · ${cpus().length} cores · ${fmt(totalmem() / 2 ** 30, 1)} GiB · ${platform()} ${release()} · Node ${process.version} · load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
lines.push('')
lines.push(`Command: \`npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` · ${CONNECTIONS} connections · ${WARMUP_S} s warm-up + ${MEASURE_S} s per endpoint · ${runs} run(s) · req/s is the median of the one-second samples (median over runs) · the load generator (autocannon) shares the machine.`)
const targetRows = []
if (parts.has('throughput')) {
  lines.push('')
  lines.push('## Throughput and latency (standalone)')
  lines.push('')
  lines.push('| target | endpoint | req/s | p50 ms | p99 ms | vs baseline | vs MSW floor | server CPU µs/req |')
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|')
  for (const target of targets) {
    for (const endpoint of endpoints) {
      const rps = med(target.id, endpoint.id, 'rps')
      lines.push(`| ${target.label} | ${endpoint.label} | ${fmt(rps)} | ${fmt(med(target.id, endpoint.id, 'p50'))} | ${fmt(med(target.id, endpoint.id, 'p99'))} | ${ratioTo(rps, 'baseline', endpoint.id)} | ${ratioTo(rps, 'floor', endpoint.id)} | ${cpuOf(target.id, endpoint.id)} |`)
    }
  }
  if (has('sendbox') && has('floor')) {
    for (const endpoint of ['send', 'list']) {
      const ratio = med('sendbox', endpoint, 'rps') / med('floor', endpoint, 'rps')
      targetRows.push(`| ${endpoints.find((e) => e.id === endpoint).label} ≥ 90% of the MSW floor's req/s | ${pct(ratio)} | ${pass(ratio >= 0.9)} |`)
    }
  }
  if (has('sendbox')) {
    const worstP99 = Math.max(...endpoints.map((e) => med('sendbox', e.id, 'p99')))
    targetRows.push(`| p99 ≤ 30 ms at ${CONNECTIONS} connections (worst endpoint) | ${fmt(worstP99)} ms | ${pass(worstP99 <= 30)} |`)
    const idle = median(memory.sendbox.idle)
    targetRows.push(`| idle RSS ≤ 80 MB, ${fmt(SUBSCRIBERS)} subscribers seeded | ${fmt(idle)} MB | ${pass(idle <= 80)} |`)
  }
}
if (parts.has('start') || parts.has('throughput')) {
  lines.push('')
  lines.push('## Start-up and memory')
  lines.push('')
  lines.push(`| target | start → first 2xx (median of ${START_SAMPLES}) | vs baseline | RSS idle, default seed | RSS idle, ${fmt(SUBSCRIBERS)} subscribers | RSS after load |`)
  lines.push('|---|---:|---:|---:|---:|---:|')
  const startMed = Object.fromEntries(Object.entries(starts).map(([id, list]) => [id, median(list)]))
  for (const target of targets) {
    const start = startMed[target.id] === undefined ? '–' : `${fmt(startMed[target.id])} ms`
    const vs = startMed[target.id] === undefined || startMed.baseline === undefined ? '–' : `${fmt(startMed[target.id] / startMed.baseline, 2)}×`
    const mem = memory[target.id]
    const idle = idleDefault[target.id] === undefined ? '–' : `${fmt(idleDefault[target.id])} MB`
    lines.push(`| ${target.label} | ${start} | ${vs} | ${idle} | ${mem ? `${fmt(median(mem.idle))} MB` : '–'} | ${mem ? `${fmt(median(mem.afterLoad))} MB` : '–'} |`)
  }
  if (startMed['sendbox-cold'] !== undefined) {
    const vs = startMed.baseline === undefined ? '–' : `${fmt(startMed['sendbox-cold'] / startMed.baseline, 2)}×`
    lines.push(`| sendbox, first start after install (no code cache yet) | ${fmt(startMed['sendbox-cold'])} ms | ${vs} | ${idleDefault['sendbox-cold'] === undefined ? '–' : `${fmt(idleDefault['sendbox-cold'])} MB`} | | |`)
  }
  if (idleDefault.sendbox !== undefined) {
    targetRows.push(`| idle RSS ≤ 80 MB, default seed | ${fmt(idleDefault.sendbox)} MB | ${pass(idleDefault.sendbox <= 80)} |`)
  }
  if (startMed.sendbox !== undefined && startMed.baseline !== undefined) {
    const startRatio = startMed.sendbox / startMed.baseline
    targetRows.push(`| start → first 2xx ≤ 2.5× baseline | ${fmt(startRatio, 2)}× (${fmt(startMed.sendbox)} vs ${fmt(startMed.baseline)} ms) | ${pass(startRatio <= 2.5)} |`)
  }
}
if (inProcess) {
  lines.push('')
  lines.push('## In-process (msw `setupServer`, sequential `fetch`)')
  lines.push('')
  lines.push('| endpoint | sandbox.handlers req/s | bare msw handler req/s | sandbox CPU µs/fetch | bare CPU µs/fetch | ratio (from CPU time) |')
  lines.push('|---|---:|---:|---:|---:|---:|')
  for (const endpoint of endpoints) {
    const r = inProcess[endpoint.id]
    lines.push(`| ${endpoint.label} | ${fmt(r.sandbox)} | ${fmt(r.bare)} | ${fmt(r.sandboxCpuUs)} | ${fmt(r.bareCpuUs)} | ${pct(r.ratio)} |`)
  }
  const worstInProcess = Math.min(...endpoints.map((e) => inProcess[e.id].ratio))
  targetRows.push(`| in-process ≥ 85% of a bare msw handler (worst endpoint) | ${pct(worstInProcess)} | ${pass(worstInProcess >= 0.85)} |`)
}
if (scaleSubscribers && scaleSends) {
  lines.push('')
  lines.push('## Scale (in-process, on the domain)')
  lines.push('')
  lines.push('| measure | value |')
  lines.push('|---|---:|')
  lines.push(`| ${fmt(scaleSubscribers.subscribers)} subscribers in one account: created in | ${fmt(scaleSubscribers.seedMs / 1000, 1)} s |`)
  lines.push(`| RSS empty → with ${fmt(scaleSubscribers.subscribers)} subscribers | ${fmt(scaleSubscribers.rssEmpty)} → ${fmt(scaleSubscribers.rssLoaded)} MB |`)
  lines.push(`| GET by id | ${fmt(scaleSubscribers.byIdUs, 2)} µs |`)
  lines.push(`| list page 1 (limit 20) | ${fmt(scaleSubscribers.page1Us, 2)} µs |`)
  lines.push(`| list page ${fmt(scaleSubscribers.lastPage)} (limit 20, ${scaleSubscribers.lastPageSize} items) | ${fmt(scaleSubscribers.pageLastUs, 2)} µs |`)
  lines.push(`| ${fmt(scaleSends.sends)} sends (capture + journal): per send | ${fmt(scaleSends.sendUs, 2)} µs |`)
  lines.push(`| RSS before → after ${fmt(scaleSends.sends)} sends (after GC; peak) | ${fmt(scaleSends.rssBefore)} → ${fmt(scaleSends.rssAfter)} MB (peak ${fmt(scaleSends.rssPeak)}) |`)
  lines.push(`| outbox / journal held | ${fmt(scaleSends.outboxSize)} of ${fmt(scaleSends.outboxCap)} / ${fmt(scaleSends.journalSize)} |`)
  const worstScale = Math.max(scaleSubscribers.byIdUs, scaleSubscribers.page1Us, scaleSubscribers.pageLastUs)
  targetRows.push(`| by id and any list page ≤ 100 µs at 100k (worst) | ${fmt(worstScale, 2)} µs | ${pass(worstScale <= 100)} |`)
  targetRows.push(`| RSS after ${fmt(scaleSends.sends)} sends ≤ 200 MB | ${fmt(scaleSends.rssAfter)} MB | ${pass(scaleSends.rssAfter <= 200)} |`)
}
lines.push('')
lines.push('## Targets')
lines.push('')
lines.push('| target | measured | holds |')
lines.push('|---|---:|:---:|')
lines.push(...targetRows)
lines.push('')
lines.push(`Wall time ${fmt((performance.now() - wallStart) / 1000)} s.`)

const table = lines.join('\n')
process.stdout.write(`${table}\n`)
mkdirSync(dirname(flags.out), { recursive: true })
writeFileSync(flags.out, `${table}\n`)
log(`written to ${relative(root, flags.out)}`)
