/**
 * The server process of http-duel.mjs: one node:http server per build, all in this one process
 * (each build's own sandbox, listener and dispatcher). Prints their ports as a JSON array.
 *
 *   node bench/experiments/http-duel-server.mjs DIST_SRC_DIR…   (a build's dist/src; 7e48468's layout too)
 */
import { existsSync } from 'node:fs'

const ports = []
for (const dir of process.argv.slice(2)) {
  const old = existsSync(`${dir}/server/http-server.js`) // before src/transports existed
  const { createSandbox } = await import(`${dir}/index.js`)
  const { startServer } = await import(old ? `${dir}/server/http-server.js` : `${dir}/transports/http-server.js`)
  const sandbox = createSandbox({
    apiKeys: ['bench:enterprise', 'bench-list:enterprise'],
    limits: { enterprise: 1_000_000 },
    subscribers: 1000,
    baseUrl: 'http://127.0.0.1:3000/v1',
  })
  await sandbox.ready
  const running = await startServer(sandbox, { port: 0 })
  ports.push(running.port ?? running.server.address().port)
}
console.log(JSON.stringify(ports))
process.on('SIGINT', () => process.exit(0))
