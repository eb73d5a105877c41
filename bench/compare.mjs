#!/usr/bin/env node
/**
 * The hot-path guard (issue 37, item 4): `npm run bench -- --compare REF` builds REF once
 * (bench/lib/ref-build.mjs), then runs, interleaved round by round (HEAD, REF, bare node:http,
 * HEAD, REF, …) so the machine's noise falls on all of them:
 *
 *   - the standalone CLI's email send and subscriber list under autocannon (50 connections),
 *     each against a bare node:http server answering the same JSON;
 *   - the 100,000-message outbox of bench/outbox-scale.mjs (page, search, old-match waits,
 *     sends at a full outbox), HEAD and REF interleaved (`scale`).
 *
 *   - with `--only …,suite`: the 310-test vitest suite of bench/suite (HEAD's and REF's packages
 *     against the same suite on hand-written msw handlers; Node 24 + msw 3, or Node 20 + msw 2 with
 *     `--node 20`), not in the default list (a few minutes).
 *
 * A build whose `npm start` gives node flags (HEAD's `--no-concurrent-recompilation`) is also run
 * as `npm start` runs it, in the same rounds, and reported beside (throughput and RSS).
 *
 * Prints medians and the ratios HEAD/REF, HEAD/bare and the suite's HEAD/hand-written, and writes
 * them to bench/results/compare-<ref>.md.
 *
 *   npm run bench -- --compare 7e48468 [--rounds 5] [--seconds 5] [--node 24|20|current] [--only send,list,scale]
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { measureEndpoint } from './lib/load.mjs'
import { freePort, getText, median, postText, rssMb, startTarget, stopTarget } from './lib/processes.mjs'
import { builtRef } from './lib/ref-build.mjs'
import { AUTH, benchEndpoints, firstSubscriberId, READY_PATH, SEND_BODY, sandboxFlags } from './lib/workload.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: flags } = parseArgs({
  options: {
    compare: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    node: { type: 'string', default: '24' },
    only: { type: 'string', default: 'send,list,scale' },
    out: { type: 'string' },
  },
  strict: false,
})
const log = (line) => process.stderr.write(`${line}\n`)
const rounds = Number(flags.rounds)
const parts = new Set(String(flags.only).split(','))
const nodeBin =
  flags.node === 'current'
    ? process.execPath
    : execFileSync(join(root, 'scripts/node-bin.sh'), [String(flags.node)], { encoding: 'utf8' }).trim()
const nodeVersion = execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim()
const ref = flags.compare ? builtRef(root, String(flags.compare), log) : undefined

execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })

/** The JSON the bare server answers: HEAD's own answers, captured once. */
async function captureAnswers() {
  const port = await freePort()
  const { child } = await startTarget({
    command: nodeBin,
    args: [join(root, 'dist/bin/sendbox.js'), ...sandboxFlags(port)],
    port,
    readyPath: READY_PATH,
    readyHeaders: AUTH,
  })
  try {
    const list = await getText(port, '/v1/subscribers?page=1&limit=20', AUTH)
    const id = JSON.parse(list.text).data[0].id
    const byId = await getText(port, `/v1/subscribers/${id}`, AUTH)
    const send = await postText(port, '/v1/email/send', AUTH, SEND_BODY)
    const file = join(tmpdir(), `sendbox-compare-answers-${process.pid}.json`)
    writeFileSync(file, JSON.stringify({ send: send.text, list: list.text, byId: byId.text }))
    return file
  } finally {
    await stopTarget(child)
  }
}

/**
 * Node's own flags in a build's `npm start` (package.json's `node FLAGS dist/bin/sendbox.js`): how
 * the README has a user start it, and the container's ENTRYPOINT too (docs/decisions/start-flags.md).
 */
function startFlagsOf(dir) {
  const words = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.start ?? '').split(/\s+/)
  const script = words.indexOf('dist/bin/sendbox.js')
  return words[0] === 'node' && script > 0 ? words.slice(1, script) : []
}

const httpEndpoints = ['send', 'list'].filter((id) => parts.has(id))
/** The bin run by itself (`npx sendbox`), and, when its `npm start` gives node flags, the build as `npm start` runs it. */
const cliServers = (id, dir) => {
  const bin = (port) => [join(dir, 'dist/bin/sendbox.js'), ...sandboxFlags(port)]
  const start = startFlagsOf(dir)
  return [
    { id, args: bin },
    ...(start.length > 0 ? [{ id: `${id} npm start`, of: id, start, args: (port) => [...start, ...bin(port)] }] : []),
  ]
}
const servers = [...cliServers('HEAD', root), ...(ref ? cliServers('REF', ref.dir) : [])]
const results = {} // results[target][endpoint] = [{ rps, cpu }], results[target].rss = [], .rssSettled = []
const SETTLE_MS = 1500
if (httpEndpoints.length > 0) {
  const answers = await captureAnswers()
  servers.push({
    id: 'bare',
    args: (port) => [join(root, 'bench/targets/baseline-server.mjs'), '--port', String(port), '--answers', answers],
  })
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      const port = await freePort()
      const { child } = await startTarget({
        command: nodeBin,
        args: server.args(port),
        port,
        readyPath: READY_PATH,
        readyHeaders: AUTH,
      })
      try {
        await new Promise((resolve) => setTimeout(resolve, 800))
        const first = server.id === 'bare' ? 'x' : await firstSubscriberId(port)
        const cells = []
        for (const endpoint of benchEndpoints(first).filter((e) => httpEndpoints.includes(e.id))) {
          const m = await measureEndpoint(port, endpoint, {
            warmupSeconds: Number(flags.warmup),
            seconds: Number(flags.seconds),
            pid: child.pid,
          })
          if (m.non2xx || m.errors)
            log(`  warning: ${server.id} ${endpoint.id}: ${m.non2xx} non-2xx, ${m.errors} errors`)
          ;((results[server.id] ??= {})[endpoint.id] ??= []).push({ rps: m.rps, cpu: m.cpuUsPerRequest })
          cells.push(`${endpoint.id} ${m.rps} req/s ${Math.round(m.cpuUsPerRequest)} µs`)
        }
        ;(results[server.id].rss ??= []).push(await rssMb(child.pid))
        // And once the server has idled a moment: what a user sees after a test run (the CLI gives
        // memory back when it goes idle, scripts/cli-loader.mjs).
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
        ;(results[server.id].rssSettled ??= []).push(await rssMb(child.pid))
        log(
          `round ${round}/${rounds} ${server.id.padEnd(14)} ${cells.join(' | ')} | RSS after ${Math.round(results[server.id].rss.at(-1))} MB, ${SETTLE_MS / 1000} s later ${Math.round(results[server.id].rssSettled.at(-1))} MB`,
        )
      } finally {
        await stopTarget(child)
      }
    }
  }
}

// The 310-test vitest suite (issue 37 item 2): HEAD's and REF's packages against hand-written msw handlers.
let suite
if (parts.has('suite')) {
  log('the 310-test suite, HEAD, REF and hand-written msw handlers interleaved…')
  const config = String(flags.node) === '24' ? 'node24-msw3' : 'node20-msw2'
  const builds = ['--build', `HEAD=${root}`, ...(ref ? ['--build', `REF=${ref.dir}`] : [])]
  suite = execFileSync(
    process.execPath,
    [join(root, 'bench/suite/run.mjs'), '--configs', config, '--repeats', String(rounds), ...builds],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
  )
}

let scale
if (parts.has('scale') && ref) {
  log('the 100,000-message outbox, HEAD and REF interleaved…')
  scale = execFileSync(
    nodeBin,
    [
      join(root, 'bench/outbox-scale.mjs'),
      '--compare',
      String(flags.compare),
      '--rounds',
      String(rounds),
      '--node',
      String(flags.node),
    ],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
  )
}

// ---------------------------------------------------------------------------------------------
const fmt = (n, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
const med = (target, endpoint, field) => median(results[target][endpoint].map((r) => r[field]))
const lines = [
  `# sendbox compare: HEAD ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()}${ref ? ` vs ${flags.compare} (${ref.sha.slice(0, 12)})` : ''}`,
  '',
  `${new Date().toISOString()} · ${cpus()[0]?.model} · ${cpus().length} cores · Node ${nodeVersion} for every server · load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
  '',
  `Command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\` · ${rounds} interleaved rounds · ${flags.warmup} s warm-up + ${flags.seconds} s per endpoint, 50 connections · medians over rounds.`,
]
if (httpEndpoints.length > 0) {
  lines.push(
    '',
    '| endpoint | HEAD req/s | REF req/s | bare req/s | HEAD / REF | HEAD / bare | REF / bare | HEAD µs CPU/req | REF µs | bare µs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  )
  for (const id of httpEndpoints) {
    const head = med('HEAD', id, 'rps')
    const old = ref ? med('REF', id, 'rps') : NaN
    const bare = med('bare', id, 'rps')
    lines.push(
      `| ${id} | ${fmt(head)} | ${ref ? fmt(old) : '–'} | ${fmt(bare)} | ${ref ? `${fmt(head / old, 2)}×` : '–'} | ${fmt((head / bare) * 100)}% | ${ref ? `${fmt((old / bare) * 100)}%` : '–'} | ${fmt(med('HEAD', id, 'cpu'))} | ${ref ? fmt(med('REF', id, 'cpu')) : '–'} | ${fmt(med('bare', id, 'cpu'))} |`,
    )
  }
  lines.push(
    '',
    `RSS after the send and list load (MB, median): HEAD ${fmt(median(results.HEAD.rss))}${ref ? `, REF ${fmt(median(results.REF.rss))}` : ''}, bare ${fmt(median(results.bare.rss))}; ${SETTLE_MS / 1000} s later: HEAD ${fmt(median(results.HEAD.rssSettled))}${ref ? `, REF ${fmt(median(results.REF.rssSettled))}` : ''}, bare ${fmt(median(results.bare.rssSettled))}.`,
  )
  for (const server of servers.filter((each) => each.start !== undefined)) {
    const cells = httpEndpoints.map(
      (id) => `${id} ${fmt(med(server.id, id, 'rps'))} req/s (${fmt(med(server.id, id, 'cpu'))} µs)`,
    )
    lines.push(
      '',
      `${server.of} as its \`npm start\` runs it (\`node ${server.start.join(' ')} dist/bin/sendbox.js\`): ${cells.join(', ')}; RSS after the load ${fmt(median(results[server.id].rss))} MB, ${SETTLE_MS / 1000} s later ${fmt(median(results[server.id].rssSettled))}.`,
    )
  }
}
if (suite) lines.push('', suite.replace(/^# /, '## ').trim())
if (scale) lines.push('', scale.replace(/^# /, '## ').trim())
const table = lines.join('\n')
process.stdout.write(`${table}\n`)
const out =
  flags.out ?? join(root, 'bench/results', `compare-${String(flags.compare ?? 'none').replace(/[^\w.-]/g, '_')}.md`)
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, `${table}\n`)
log(`written to ${out}`)
