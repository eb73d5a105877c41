import { createSandboxClient, type SandboxClient } from '../client/index.js'
import { sandboxAsClient } from '../mcp/local-client.js'
import { startServer } from '../transports/http-server.js'
import type { CliSettings } from './options.js'

interface Io {
  stderr: NodeJS.WritableStream
}

/**
 * `sendbox mcp`: a Model Context Protocol server over stdin/stdout. With `--url` it drives the
 * sandbox running there (over HTTP, `sendbox/client`); without, it starts one in this process,
 * serving the API on `--port` as `sendbox` does, so the app under test can send to it. stdout is
 * the protocol's: everything else goes to stderr. Resolves with the exit code once stdin ends.
 */
export async function runMcp(
  settings: CliSettings,
  sandboxOf: () => Promise<import('../index.js').Sandbox>,
  io: Io,
  isLoopback: (host: string) => boolean,
): Promise<number> {
  let client: SandboxClient
  let stop = async () => {}
  if (settings.url !== undefined) {
    try {
      client = createSandboxClient({ url: settings.url, adminToken: settings.adminToken })
      await client.health()
    } catch (error) {
      io.stderr.write(`sendbox mcp: ${(error as Error).message}\n`)
      return 1
    }
  } else if (!isLoopback(settings.host) && settings.adminToken === undefined) {
    // Its controls would be open to the network, and the token would have nowhere to be printed but stderr.
    io.stderr.write(`sendbox mcp: --host ${settings.host} is not a loopback address: give --admin-token TOKEN too\n`)
    return 2
  } else {
    const sandbox = await sandboxOf()
    try {
      const running = await startServer(sandbox, {
        port: settings.port,
        host: settings.host,
        corsOrigins: settings.corsOrigins,
        allowedHosts: settings.allowedHosts,
      })
      io.stderr.write(
        `sendbox mcp: a sandbox in this process, listening on ${running.url}/v1 (controls and web inbox under ${running.url}/__sandbox)\n`,
      )
      client = sandboxAsClient(sandbox, running.url)
      stop = async () => {
        await running.close()
        sandbox.dispose()
      }
    } catch (error) {
      sandbox.dispose()
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      io.stderr.write(
        `sendbox mcp: ${inUse ? `port ${settings.port} is in use; if a sendbox runs there, use \`sendbox mcp --url http://127.0.0.1:${settings.port}\`, else pass --port` : (error as Error).message}\n`,
      )
      return 1
    }
  }
  const { serveStdio } = await import('../mcp/index.js')
  await serveStdio(client)
  await stop()
  return 0
}
