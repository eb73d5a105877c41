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
 * When the request's client goes away (its signal aborts), the server closes: every tool still
 * running is aborted (a wait is released at once, its waiter slot freed) and the answer rejects
 * with the signal's reason.
 */
export async function handleMcpHttp(client: SandboxClient, request: Request, parsedBody?: unknown): Promise<Response> {
  const server = createMcpServer(client)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  const { signal } = request
  let onAbort = () => {}
  // The SDK's JSON answer never settles once its server is closed: the abort settles it instead.
  const gone = new Promise<never>((_, reject) => {
    onAbort = () => {
      void server.close()
      reject(signal.reason)
    }
  })
  gone.catch(() => {})
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    if (signal.aborted) onAbort()
    return await Promise.race([
      transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody }),
      gone,
    ])
  } finally {
    signal.removeEventListener('abort', onAbort)
    void server.close()
  }
}
