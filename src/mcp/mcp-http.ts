/**
 * MCP over Streamable HTTP, for `/__sandbox/mcp`: Web-standard APIs only (no stdio, nothing of
 * Node), so the handlers stay bundleable for the browser. Loaded lazily on the first MCP request.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { SandboxClient } from '../client/index.js'
import { createMcpServer } from './tools.js'

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
