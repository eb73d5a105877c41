/**
 * The sandbox behind the threaded transport (src/transports/threaded-server.ts: HTTP on a worker
 * thread, the sandbox and msw on the main thread). Same flags as `sendbox` (parsed by the CLI's
 * own parser) plus `--threads N` (default: the transport's default for this machine).
 * Usage: node bench/targets/threaded-server.mjs [--threads N] --port N [sendbox flags]
 */
import './loader-v8-flags.mjs'
import { parseCli } from '../../dist/src/cli/options.js'
import { sandboxFromSettings } from '../../dist/src/cli/run.js'
import { startThreadedServer } from '../../dist/src/transports/threaded-server.js'

const argv = process.argv.slice(2)
const at = argv.indexOf('--threads')
const threads = at === -1 ? undefined : Number(argv.splice(at, 2)[1])
const settings = parseCli(argv, {})
const sandbox = await sandboxFromSettings(settings)
const running = await startThreadedServer(sandbox, { port: settings.port, host: settings.host, threads })
process.stdout.write(`threaded transport (${running.threads} threads) listening on ${running.url}/v1\n`)
const stop = () => {
  sandbox.dispose()
  void running.close().then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
