/**
 * Side-by-side A/B of sendbox CLIs or V8 flags: each variant started as `npm run bench` starts
 * sendbox (bench/lib/workload.mjs), its endpoints under autocannon (50 connections, 2 s warm-up,
 * 6 s), variants interleaved round by round so the machine's noise falls on all of them. Prints
 * req/s, server CPU µs per request, p99, idle RSS and RSS after.
 *
 *   node bench/ab.mjs '{"now":{},"v8":{"flags":""},"old":{"bin":"/path/to/old/dist/bin/sendbox.js"}}' [rounds] [send,list,byId]
 *
 * `bin` defaults to dist/bin/sendbox.js; `flags` sets SENDBOX_V8_FLAGS (absent: the loader's own);
 * `args` are more CLI flags (e.g. `["--delivery-ms","0"]`); `node` are flags for `node` itself, before the
 * script (e.g. `["--no-concurrent-recompilation"]`: V8 flags that only work from start).
 * An old build must sit inside a folder whose node_modules resolve (e.g. a copy under this repo).
 */
import { measureEndpoint } from './lib/load.mjs'
import { freePort, rssMb, startTarget, stopTarget } from './lib/processes.mjs'
import { AUTH, benchEndpoints, firstSubscriberId, READY_PATH, sandboxFlags } from './lib/workload.mjs'

const variants = JSON.parse(process.argv[2] ?? '{"now":{}}')
const rounds = Number(process.argv[3] ?? 2)
const wanted = (process.argv[4] ?? 'send,list,byId').split(',')

for (let round = 1; round <= rounds; round++) {
  for (const [name, { bin = 'dist/bin/sendbox.js', flags, args = [], node = [] }] of Object.entries(variants)) {
    const port = await freePort()
    const env = { ...process.env }
    if (flags !== undefined) env.SENDBOX_V8_FLAGS = flags
    const { child } = await startTarget({
      args: [...node, bin, ...sandboxFlags(port), ...args],
      port,
      readyPath: READY_PATH,
      readyHeaders: AUTH,
      env,
    })
    try {
      await new Promise((resolve) => setTimeout(resolve, 1200))
      const idle = await rssMb(child.pid)
      const first = await firstSubscriberId(port)
      const cells = []
      for (const endpoint of benchEndpoints(first).filter((e) => wanted.includes(e.id))) {
        const m = await measureEndpoint(port, endpoint, { warmupSeconds: 2, seconds: 6, pid: child.pid })
        cells.push(
          `${endpoint.id} ${m.rps} req/s${m.non2xx || m.errors ? ` (${m.non2xx} non-2xx, ${m.errors} errors!)` : ''} ${Math.round(m.cpuUsPerRequest)} µs p99 ${m.p99} ms`,
        )
      }
      console.log(
        `round ${round} ${name.padEnd(10)} ${cells.join(' | ')} | RSS idle ${Math.round(idle)} MB, after ${Math.round(await rssMb(child.pid))} MB`,
      )
    } finally {
      await stopTarget(child)
    }
  }
}
