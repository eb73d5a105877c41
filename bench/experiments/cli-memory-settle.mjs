/**
 * The CLI's RSS after the bench's send and list load, right after, 1.5 s and 4.5 s later, then
 * the same load again: how much the loader's settle gives back and whether the next load pays for
 * it (scripts/cli-loader.mjs; docs/decisions/cli-memory-settle.md). Starts the CLI as
 * `npm run bench -- --compare` does (0.8 s idle after it answers, then 2 + 4 s per endpoint).
 *
 *   "$(scripts/node-bin.sh 24)" bench/experiments/cli-memory-settle.mjs dist/bin/sendbox.js [node flags…]
 *   (SENDBOX_V8_FLAGS and SENDBOX_NO_SETTLE pass through to the CLI)
 */
import { readFileSync } from 'node:fs'
import { measureEndpoint } from '../lib/load.mjs'
import { freePort, startTarget, stopTarget, rssMb } from '../lib/processes.mjs'
import { sandboxFlags, benchEndpoints, firstSubscriberId, READY_PATH, AUTH } from '../lib/workload.mjs'
const [bin, ...extra] = process.argv.slice(2)
const port = await freePort()
const { child } = await startTarget({
  command: process.execPath,
  args: [...extra, bin, ...sandboxFlags(port)],
  port,
  readyPath: READY_PATH,
  readyHeaders: AUTH,
})
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const rss = async () => (await rssMb(child.pid)).toFixed(0)
await sleep(800)
const first = await firstSubscriberId(port)
const eps = benchEndpoints(first).filter((e) => ['send', 'list'].includes(e.id))
const out = []
for (let pass = 1; pass <= 2; pass++) {
  for (const e of eps) {
    const m = await measureEndpoint(port, e, { warmupSeconds: 2, seconds: 4, pid: child.pid })
    out.push(`${e.id} ${Math.round(m.cpuUsPerRequest)}µs`)
  }
  out.push(`rss ${await rss()}`)
  await sleep(1500)
  out.push(`+1.5s ${await rss()}`)
  await sleep(3000)
  out.push(`+4.5s ${await rss()} |`)
}
console.log(out.join(' '))
await stopTarget(child)
