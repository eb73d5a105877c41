/**
 * Builds side by side in ONE server process (http-duel-server.mjs), loaded in 1-second bursts
 * that alternate between them (order reversed every round), with the server's CPU time read per
 * burst. On a shared, noisy machine two CLIs measured minutes apart differ by more than the code
 * does; bursts a second apart in one process share the machine's state, the heap's size and the
 * JIT's flags. (One process also shares its garbage collector: a collection in one build's burst
 * may be another's garbage. Read it beside `npm run bench -- --compare`, not instead of it.)
 *
 *   node bench/experiments/http-duel.mjs [--which send|list] [--rounds 30] [--prof DIR] DIST_SRC_DIR…
 * (`--node-flags='--heap-growing-percent=50 --semi-space-growth-factor=1'`: the server's Node
 * and V8 flags, e.g. the CLI's memory flags, under which what a build keeps per request costs
 * more collections. `--prof DIR`: the server's CPU profile written into DIR; a sample's stack URLs, under one
 * build's folder or the other's, tell which build it belongs to.)
 *   e.g. node bench/experiments/http-duel.mjs dist/src .bench-ref/7e4846833d33/dist/src
 */
import { execFileSync, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { measureEndpoint } from '../lib/load.mjs'
import { median } from '../lib/processes.mjs'
import { SEND_BODY } from '../lib/workload.mjs'

const { values, positionals } = parseArgs({
  options: {
    which: { type: 'string', default: 'send' },
    rounds: { type: 'string', default: '30' },
    prof: { type: 'string' },
    'node-flags': { type: 'string', default: '' },
  },
  allowPositionals: true,
})
const root = resolve(import.meta.dirname, '../..')
const node = execFileSync(`${root}/scripts/node-bin.sh`, ['24'], { encoding: 'utf8' }).trim()
const dirs = positionals.map((dir) => resolve(dir))
const profile = values.prof ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', resolve(values.prof)] : []
const server = spawn(
  node,
  [
    ...values['node-flags'].split(' ').filter(Boolean),
    ...profile,
    `${root}/bench/experiments/http-duel-server.mjs`,
    ...dirs,
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
)
const ports = await new Promise((done) => {
  let text = ''
  server.stdout.on('data', (chunk) => {
    text += chunk
    if (text.includes('\n')) done(JSON.parse(text))
  })
})
const endpoint =
  values.which === 'send'
    ? {
        path: '/v1/email/send',
        method: 'POST',
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
        body: SEND_BODY,
      }
    : { path: '/v1/subscribers?page=1&limit=20', method: 'GET', headers: { authorization: 'Bearer bench-list' } }
const burst = (i, seconds, pid) => measureEndpoint(ports[i], endpoint, { warmupSeconds: 0, seconds, pid })
const results = dirs.map(() => [])
try {
  for (let i = 0; i < dirs.length; i++) await burst(i, 3)
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = dirs.map((_, i) => i)
    if (round % 2 === 1) order.reverse()
    for (const i of order) results[i].push(await burst(i, 1, server.pid))
  }
  const first = median(results[0].map((m) => m.rpsMean))
  dirs.forEach((dir, i) => {
    const rps = median(results[i].map((m) => m.rpsMean))
    const cpu = median(results[i].map((m) => m.cpuUsPerRequest))
    console.log(
      `${dir.replace(`${root}/`, '').padEnd(36)} ${values.which} ${Math.round(rps)} req/s (${(rps / first).toFixed(2)}× the first) ${cpu.toFixed(1)} µs CPU a request`,
    )
  })
} finally {
  server.kill('SIGINT')
  await new Promise((done) => server.on('exit', done))
}
