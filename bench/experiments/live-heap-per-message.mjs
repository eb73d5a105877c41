/**
 * What a captured message costs in live heap, for this build and others (issue 37, item 3): each
 * build's CLI (the bench's flags, 1,000 subscribers) on Node 24, its live heap after a full GC
 * idle and after 4 s of email sends (autocannon, 50 connections; the outbox then holds its
 * 10,000), divided by the messages held. The journal's 1,000 entries are in the difference too.
 *
 *   node bench/experiments/live-heap-per-message.mjs [DIR-of-another-build …]
 *   (for example .bench-ref/<sha>, which `npm run bench -- --compare REF` builds)
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { measure } from '../lib/load.mjs'
import { freePort, getText, startTarget, stopTarget } from '../lib/processes.mjs'
import { AUTH, benchEndpoints, READY_PATH, sandboxFlags } from '../lib/workload.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const nodeBin = execFileSync(join(root, 'scripts/node-bin.sh'), ['24'], { encoding: 'utf8' }).trim()
const preload = fileURLToPath(new URL('./live-heap-preload.mjs', import.meta.url))

async function liveHeap(dir) {
  const port = await freePort()
  const out = join(tmpdir(), `sendbox-live-heap-${process.pid}.json`)
  const env = { ...process.env, LIVE_HEAP_OUT: out, NODE_OPTIONS: `--expose-gc --import ${preload}` }
  const { child } = await startTarget({
    command: nodeBin,
    args: [join(dir, 'dist/bin/sendbox.js'), ...sandboxFlags(port)],
    port,
    readyPath: READY_PATH,
    readyHeaders: AUTH,
    env,
  })
  const read = async () => {
    child.kill('SIGUSR2')
    await new Promise((done) => setTimeout(done, 500))
    return JSON.parse(readFileSync(out, 'utf8'))
  }
  try {
    const idle = await read()
    const send = benchEndpoints('x').find((endpoint) => endpoint.id === 'send')
    const url = `http://127.0.0.1:${port}${send.path}`
    await measure({ url, method: send.method, headers: send.headers, body: send.body, warmupSeconds: 0, seconds: 4 })
    await new Promise((done) => setTimeout(done, 1500)) // every lifecycle step done
    const after = await read()
    const { messages } = JSON.parse((await getText(port, '/__sandbox/health', AUTH)).text)
    return { idle, after, messages }
  } finally {
    await stopTarget(child)
    rmSync(out, { force: true })
  }
}

for (const dir of [root, ...process.argv.slice(2).map((d) => resolve(d))]) {
  const { idle, after, messages } = await liveHeap(dir)
  const perMessage = Math.round(((after.heapUsed - idle.heapUsed) * 2 ** 20) / messages)
  console.log(
    `${dir === root ? 'HEAD' : dir}: ${messages} messages, live heap ${idle.heapUsed.toFixed(1)} → ${after.heapUsed.toFixed(1)} MB ` +
      `(${perMessage} bytes a message), RSS after GC ${Math.round(after.rss)} MB, heap committed ${Math.round(after.heapTotal)} MB, external ${Math.round(after.external)} MB (idle: RSS ${Math.round(idle.rss)}, committed ${Math.round(idle.heapTotal)})`,
  )
}
