/**
 * What a request leaves for the old generation: the bytes per request that outlive a young
 * collection (copied out of it: promoted, then garbage for a full collection, or kept), by where
 * they were allocated. Under the CLI's memory flags (`--heap-growing-percent=50`) every such byte
 * brings the next full collection closer: the journal's 1,000 entries each outlive ~1,000
 * requests, so whatever an entry holds is promoted under load.
 *
 *   node24 bench/experiments/promoted-bytes.mjs [BIN=dist/bin/sendbox.js] [send|list] [TOP=25]
 *
 * The CLI is started as `npm run bench` starts it, loaded 2 s, then sampled over 3 s of load
 * (V8's sampling heap profiler, one sample per ~4 KB: figures under ~20 B a request are noise).
 * `ALL_ALLOCATIONS=1` keeps the samples the young collections freed too: every byte a request
 * allocates, by site (what sets how often a young collection runs).
 */
import { readFileSync, rmSync } from 'node:fs'
import { measureEndpoint } from '../lib/load.mjs'
import { freePort, startTarget, stopTarget } from '../lib/processes.mjs'
import { AUTH, benchEndpoints, firstSubscriberId, READY_PATH, sandboxFlags } from '../lib/workload.mjs'

const [bin = 'dist/bin/sendbox.js', which = 'list', top = '25'] = process.argv.slice(2)
const port = await freePort()
const preload = new URL('./promoted-bytes-probe.mjs', import.meta.url).pathname
const { child } = await startTarget({
  args: ['--import', preload, bin, ...sandboxFlags(port)],
  port,
  readyPath: READY_PATH,
  readyHeaders: AUTH,
})
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
try {
  await sleep(800)
  const endpoint = benchEndpoints(await firstSubscriberId(port)).find((e) => e.id === which)
  const load = (seconds) => measureEndpoint(port, endpoint, { warmupSeconds: 0, seconds, pid: child.pid })
  await load(2)
  process.kill(child.pid, 'SIGUSR2')
  await sleep(200)
  const sampled = await load(3)
  process.kill(child.pid, 'SIGUSR1')
  const file = `/tmp/promoted-bytes-${child.pid}.json`
  let profile
  for (let i = 0; i < 50 && profile === undefined; i++) {
    await sleep(100)
    try {
      profile = JSON.parse(readFileSync(file, 'utf8'))
    } catch {}
  }
  rmSync(file, { force: true })
  const bySite = new Map()
  let total = 0
  const walk = (node, caller) => {
    const frame = node.callFrame
    const here = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/dist\//, '')}:${frame.lineNumber + 1}`
    if (node.selfSize > 0) {
      const site = `${here}  <  ${caller}`
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize)
      total += node.selfSize
    }
    for (const child of node.children) walk(child, here)
  }
  walk(profile.head, '')
  const requests = sampled.rps * 3
  console.log(
    `${which}: ${sampled.rps} req/s while sampled; ${(total / requests).toFixed(0)} B a request outlived a young collection`,
  )
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    console.log(`${(bytes / requests).toFixed(0).padStart(6)}  ${site}`)
} finally {
  await stopTarget(child)
}
