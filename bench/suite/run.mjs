#!/usr/bin/env node
/**
 * The suite scenario (issue 37, item 2): what a test suite pays for sendbox against the same suite
 * with hand-written msw handlers. 11 vitest files, 310 tests: 300 sends (email, SMS, WhatsApp) made
 * by the application's own `fetch` to the real service's URLs and asserted on their link or code,
 * and 10 subscriber tests. bench/suite/sendbox/ asserts through the sandbox (`outbox.waitFor`);
 * bench/suite/handwritten/ answers the same JSON from `http.post(...)` handlers and reads a
 * hand-kept array. Both share bench/suite/app.ts, the application under test.
 *
 * Each configuration is a consumer project under node_modules/.cache/bench-suite/<id>/: the
 * built package copied to its node_modules/sendbox (as `npm install` would put it, so vitest loads
 * it from node_modules like any dependency), its node_modules/msw linked to msw 2 (the dev
 * dependency) or msw 3 (installed once as scripts/test-msw3.sh does), and the two suites. Runs are
 * interleaved (sendbox, hand-written, then the other order), after one warm-up run of each; the
 * medians of wall time and of CPU time (the vitest process tree's user + system) are compared.
 *
 *   node bench/suite/run.mjs [--repeats 5] [--configs node24-msw3,node20-msw2] [--json]
 *                            [--build HEAD=. --build REF=.bench-ref/<sha>] [--workers N]
 *
 * `npm run bench -- --only suite` runs it from bench/run.mjs; `npm run bench -- --compare REF
 * --only suite` runs it with HEAD's and REF's builds (bench/compare.mjs).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { CONFIGS, consumer } from './consumer.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const { values: flags } = parseArgs({
  options: {
    repeats: { type: 'string', default: '5' },
    configs: { type: 'string', default: 'node24-msw3,node20-msw2' },
    build: { type: 'string', multiple: true, default: [`HEAD=${root}`] },
    workers: { type: 'string', default: '' },
    json: { type: 'boolean', default: false },
  },
})
const log = (line) => process.stderr.write(`${line}\n`)
const repeats = Math.max(1, Number(flags.repeats) || 5)
const builds = flags.build.map((spec) => {
  const [id, dir] = spec.split('=')
  return { id, dir: resolve(root, dir) }
})

/** Children's CPU seconds so far (user + system of waited-for descendants), from /proc. */
function childCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ')
    return (Number(fields[13]) + Number(fields[14])) / 100 // cutime, cstime (fields 16, 17) in clock ticks
  } catch {
    return NaN
  }
}

/** One run of one suite: wall and CPU seconds; throws unless all 310 tests passed. */
function runSuite(node, dir, suite) {
  const out = join(dir, `result-${suite}.json`)
  rmSync(out, { force: true })
  const cpu0 = childCpuSeconds()
  const t0 = performance.now()
  const r = spawnSync(
    node,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      dir,
      '--config',
      join(dir, 'vitest.config.mjs'),
      '--dir',
      suite,
      '--reporter=json',
      `--outputFile=${out}`,
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '', CI: '1' },
      maxBuffer: 1 << 26,
    },
  )
  const wall = (performance.now() - t0) / 1000
  const cpu = childCpuSeconds() - cpu0
  const result = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined
  if (r.status !== 0 || result?.numPassedTests !== 310 || result?.numTotalTestSuites === undefined) {
    throw new Error(
      `${suite} suite in ${dir} failed (exit ${r.status}, ${result?.numPassedTests} passed):\n${(r.stdout ?? '').slice(-3000)}\n${(r.stderr ?? '').slice(-3000)}`,
    )
  }
  return { wall, cpu }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const results = []
for (const configId of flags.configs.split(',')) {
  const make = CONFIGS[configId]
  if (!make) throw new Error(`unknown configuration ${configId} (${Object.keys(CONFIGS).join(', ')})`)
  const config = make()
  if (config.skip) {
    log(`${configId}: skipped (${config.skip})`)
    continue
  }
  const version = execFileSync(config.node, ['--version'], { encoding: 'utf8' }).trim()
  const mswVersion = JSON.parse(readFileSync(join(config.msw, 'package.json'), 'utf8')).version
  const dirs = Object.fromEntries(
    builds.map((build) => [build.id, consumer(configId, build, config.msw, flags.workers)]),
  )
  // The order within a round alternates, so a drift of the machine's load favours neither side.
  const runs = [
    ...builds.map((b) => ({ id: b.id, dir: dirs[b.id], suite: 'sendbox' })),
    { id: 'hand-written', dir: dirs[builds[0].id], suite: 'handwritten' },
  ]
  const samples = Object.fromEntries(runs.map((run) => [run.id, []]))
  log(`${configId} (Node ${version}, msw ${mswVersion}): warm-up`)
  for (const run of runs) runSuite(config.node, run.dir, run.suite)
  for (let round = 0; round < repeats; round++) {
    const order = round % 2 === 0 ? runs : [...runs].reverse()
    const cells = []
    for (const run of order) {
      const sample = runSuite(config.node, run.dir, run.suite)
      samples[run.id].push(sample)
      cells.push(`${run.id} ${sample.wall.toFixed(2)} s (CPU ${sample.cpu.toFixed(2)} s)`)
    }
    log(`${configId} round ${round + 1}/${repeats}: ${cells.join(' | ')}`)
  }
  const med = (id, field) => median(samples[id].map((s) => s[field]))
  const hand = { wall: med('hand-written', 'wall'), cpu: med('hand-written', 'cpu') }
  for (const build of builds) {
    const wall = med(build.id, 'wall')
    const cpu = med(build.id, 'cpu')
    results.push({
      config: configId,
      node: version,
      msw: mswVersion,
      build: build.id,
      wall,
      cpu,
      handWall: hand.wall,
      handCpu: hand.cpu,
      ratio: wall / hand.wall,
      cpuRatio: cpu / hand.cpu,
      repeats,
    })
  }
}

if (flags.json) {
  process.stdout.write(`${JSON.stringify(results)}\n`)
} else {
  const f = (n, d = 2) => n.toFixed(d)
  const lines = [
    `# The 310-test suite: sendbox against hand-written msw handlers`,
    '',
    `${new Date().toISOString()} · ${cpus()[0]?.model} · ${cpus().length} cores · load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} · ${repeats} interleaved repeats, medians`,
    '',
    '| configuration | build | sendbox wall (s) | hand-written wall (s) | ratio (wall) | sendbox CPU (s) | hand-written CPU (s) | ratio (CPU) |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| Node ${r.node} + msw ${r.msw} | ${r.build} | ${f(r.wall)} | ${f(r.handWall)} | **${f(r.ratio)}×** | ${f(r.cpu)} | ${f(r.handCpu)} | ${f(r.cpuRatio)}× |`,
    ),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}
