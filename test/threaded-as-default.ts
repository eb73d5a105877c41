/*
 * http-server.ts with `startServer` answered by the threaded transport (2 threads), for running
 * the existing server suites against it: `npx vitest run --config vitest.threaded.config.ts`
 * points the suites' imports of http-server.js here. Everything else is http-server.ts's own.
 */
import { EventEmitter } from 'node:events'
import type { Server } from 'node:http'
import type { Sandbox } from '../src/index.js'
import type { RunningServer, ServerOptions } from '../src/transports/http-server.js'
import { startThreadedServer } from '../src/transports/threaded-server.js'

export * from '../src/transports/http-server.js'

/**
 * `startServer` on two threads. The `server` it gives stands in for the worker's node:http server:
 * `address()` and `getConnections()` answer for it; `connection` events carry no socket across
 * threads, so a suite that inspects server-side sockets cannot run against this.
 */
export async function startServer(sandbox: Sandbox, options: ServerOptions = {}): Promise<RunningServer> {
  const running = await startThreadedServer(sandbox, { ...options, threads: 2 })
  const server = Object.assign(new EventEmitter(), {
    address: () => running.address,
    getConnections: (callback: (error: Error | null, count: number) => void) => {
      void running.connections().then((count) => callback(null, count))
    },
  }) as unknown as Server
  return { server, url: running.url, port: running.port, close: () => running.close() }
}
