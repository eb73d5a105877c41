/**
 * The MCP entry points, loaded lazily (a dynamic import) by `sendbox mcp` (stdio) and, through
 * ./mcp-http.ts, by `/__sandbox/mcp`: starting the server or importing `sendbox` never loads the
 * SDK. The CLI bundles this file as dist/bin/sendbox-mcp.mjs.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { SandboxClient } from '../client/index.js'
import { createMcpServer } from './tools.js'

export { handleMcpHttp } from './mcp-http.js'

/** Serves MCP over stdin/stdout until stdin ends. */
export async function serveStdio(client: SandboxClient): Promise<void> {
  const server = createMcpServer(client)
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
    process.stdin.once('end', () => resolve())
  })
  await server.connect(transport)
  await closed
  await server.close()
}
