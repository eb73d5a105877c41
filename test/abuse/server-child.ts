/**
 * A standalone server in its own process, for memory figures that the test runner's own heap
 * would blur. Prints `{"port": N}` on stdout once listening; answers the IPC message `"rss"`
 * with `{ rss }` in bytes after a full garbage collection (run with --expose-gc).
 */
import { createSandbox } from '../../src/index.js'
import { startServer } from '../../src/transports/http-server.js'

const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', deliveryMs: 0 })
const running = await startServer(sandbox, { port: 0 })
process.on('message', (message) => {
  if (message === 'rss') {
    ;(globalThis as { gc?: () => void }).gc?.()
    setTimeout(() => process.send?.({ rss: process.memoryUsage().rss }), 50)
  }
  if (message === 'stop') void running.close().then(() => process.exit(0))
})
process.send?.({ port: running.port })
