/**
 * The MCP entry points, loaded lazily (a dynamic import) by `sendbox mcp` and `/__sandbox/mcp`:
 * starting the server or importing `sendbox` never loads the SDK.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { SandboxClient } from '../client/index.js'
import { createMcpServer } from './tools.js'

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

/**
 * Answers one Streamable HTTP request (stateless: a server and transport per request, JSON
 * answers rather than event streams). `parsedBody` is the JSON the route has read already.
 */
export async function handleMcpHttp(client: SandboxClient, request: Request, parsedBody?: unknown): Promise<Response> {
  const server = createMcpServer(client)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody })
  } finally {
    void server.close()
  }
}
