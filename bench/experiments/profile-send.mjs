/**
 * A CPU profile of the built CLI under one endpoint's load: starts `dist/bin/sendbox.js` (the
 * bench's flags, 1,000 subscribers) with `--cpu-prof` on the chosen Node, warms it up, runs
 * autocannon (50 connections) for the profiled seconds, stops the server (the profile is written
 * at exit) and prints `bench/profile-summary.mjs`'s top functions.
 *
 *   node bench/experiments/profile-send.mjs [--node 24|20|current] [--endpoint send|list] [--seconds 8] [--top 30]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { measureEndpoint } from '../lib/load.mjs'
import { freePort, startTarget, stopTarget } from '../lib/processes.mjs'
import { AUTH, benchEndpoints, READY_PATH, sandboxFlags } from '../lib/workload.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const { values: flags } = parseArgs({
  options: {
    node: { type: 'string', default: '24' },
    endpoint: { type: 'string', default: 'send' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '3' },
    top: { type: 'string', default: '30' },
    cli: { type: 'string', default: join(root, 'dist/bin/sendbox.js') },
  },
})
const nodeBin =
  flags.node === 'current'
    ? process.execPath
    : execFileSync(join(root, 'scripts/node-bin.sh'), [flags.node], { encoding: 'utf8' }).trim()
const dir = mkdtempSync(join(tmpdir(), 'sendbox-prof-'))
const port = await freePort()
const { child } = await startTarget({
  command: nodeBin,
  args: ['--cpu-prof', '--cpu-prof-dir', dir, flags.cli, ...sandboxFlags(port)],
  port,
  readyPath: READY_PATH,
  readyHeaders: AUTH,
})
const endpoint = benchEndpoints('x').find((e) => e.id === flags.endpoint)
const m = await measureEndpoint(port, endpoint, {
  warmupSeconds: Number(flags.warmup),
  seconds: Number(flags.seconds),
  pid: child.pid,
})
await stopTarget(child)
console.log(
  `${endpoint.label}: ${m.rps} req/s, ${Math.round(m.cpuUsPerRequest)} µs CPU/request (whole run incl. warm-up is profiled), ${m.non2xx} non-2xx`,
)
const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))
console.log(`profile: ${join(dir, file)}`)
process.stdout.write(
  execFileSync(process.execPath, [join(root, 'bench/profile-summary.mjs'), join(dir, file), flags.top], {
    encoding: 'utf8',
  }),
)
