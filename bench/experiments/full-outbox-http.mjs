/**
 * The send over HTTP at a full outbox of 100,000 against one of the default 10,000, both full
 * before the measure: the CLI as `npm run bench` starts it (bench/lib/workload.mjs), 5 s of
 * sends to fill it past its cap, 2 s more to warm up, then 6 s measured (autocannon, 50
 * connections); the two interleaved, ROUNDS rounds. Issue 37, item 3.
 *
 *   node bench/experiments/full-outbox-http.mjs [ROUNDS]      (default 3)
 *   EXTRA="--delivery-ms 0" node bench/experiments/full-outbox-http.mjs   (more CLI flags for both)
 *
 * Under the CLI's default delivery of 1 s a step, at ~30,000 sends a second an outbox of 10,000
 * evicts each message before its first lifecycle step, so it skips the steps an outbox of 100,000
 * takes: with `--delivery-ms 0` both take every step.
 */
import { measureEndpoint } from '../lib/load.mjs'
import { freePort, startTarget, stopTarget } from '../lib/processes.mjs'
import { AUTH, benchEndpoints, READY_PATH, sandboxFlags } from '../lib/workload.mjs'

const rounds = Number(process.argv[2] ?? 3)
const extra = (process.env.EXTRA ?? '').split(' ').filter(Boolean)
const variants = { 'full 10,000': [...extra], 'full 100,000': ['--max-messages', '100000', ...extra] }
const send = benchEndpoints('unused').find((endpoint) => endpoint.id === 'send')
for (let round = 1; round <= rounds; round++) {
  for (const [name, args] of Object.entries(variants)) {
    const port = await freePort()
    const { child } = await startTarget({
      args: ['dist/bin/sendbox.js', ...sandboxFlags(port, 10), ...args],
      port,
      readyPath: READY_PATH,
      readyHeaders: AUTH,
    })
    try {
      await measureEndpoint(port, send, { warmupSeconds: 0, seconds: 5 })
      const m = await measureEndpoint(port, send, { warmupSeconds: 2, seconds: 6, pid: child.pid })
      const held = (await (await fetch(`http://127.0.0.1:${port}/__sandbox/messages?limit=1`)).json()).pagination.total
      console.log(
        `round ${round} ${name.padEnd(13)} ${m.rps} req/s, ${m.cpuUsPerRequest.toFixed(1)} µs of CPU a send, ${m.non2xx} non-2xx, ${held} messages held`,
      )
    } finally {
      await stopTarget(child)
    }
  }
}
