import { z } from 'zod'
import { ApiError } from '../domain/errors.js'
import { sandboxAsClient } from '../mcp/local-client.js'
import type { RouteContext } from './route.js'
import { controlRoute, type Route } from './route.js'

/** Request headers the MCP transport reads (besides Accept: answers are always JSON here). */
const MCP_HEADERS = ['content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']

/** A JSON-RPC 2.0 message of the Model Context Protocol. */
const mcpMessageSchema = z.looseObject({ jsonrpc: z.literal('2.0') }).meta({
  id: 'McpMessage',
  description:
    'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, resources/read, …).',
})

/**
 * Hands the request to the MCP SDK's Streamable HTTP transport (stateless: no session). The SDK
 * is imported here, on the first MCP request: serving the API never loads it.
 */
async function answerMcp({ sandbox, request, url, raw }: RouteContext<unknown>): Promise<Response> {
  const { handleMcpHttp } = await import('../mcp/mcp-http.js')
  // JSON answers whatever the client accepts (the SDK would answer 406 to an Accept without both types).
  const headers = new Headers({ accept: 'application/json, text/event-stream' })
  for (const name of MCP_HEADERS) {
    const value = request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  const forwarded = new Request(url, { method: request.method, headers, signal: request.signal })
  return handleMcpHttp(sandboxAsClient(sandbox, url.origin), forwarded, request.method === 'POST' ? raw : undefined)
}

const description =
  'The sandbox as a Model Context Protocol server (Streamable HTTP, stateless: no session id; JSON answers; a notification is answered 202 without a body). Tools for messages (list, get, wait for a message, its code or its link), replies, opt-outs, webhook attempts, subscribers, the request journal, faults, the clock and reset (`tools/list` and docs/agents.md name them); the captured messages are resources (`sendbox://messages/{id}`). Message content in answers is JSON-quoted untrusted data. A wait counts against `--max-waiters` and ends when its request is closed. The same server runs over stdio with `sendbox mcp`.'

/** GET and DELETE: a stateless server has no stream to open and no session to end (the MCP spec's 405). */
const stateless = (): never => {
  throw new ApiError(
    'method_not_allowed',
    'This MCP server is stateless: no server-to-client stream (GET) and no session to end (DELETE). Send JSON-RPC messages with POST /__sandbox/mcp.',
    undefined,
    { Allow: 'POST' },
  )
}

/** `/__sandbox/mcp`: POST carries the client's messages; GET and DELETE answer as a stateless server does (405). */
export const sandboxMcpRoutes: Route[] = [
  controlRoute({
    method: 'POST',
    path: '/__sandbox/mcp',
    operationId: 'mcpPost',
    summary: 'MCP over Streamable HTTP: a client message',
    description,
    body: mcpMessageSchema,
    response: mcpMessageSchema,
    resolve: answerMcp,
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/mcp',
    operationId: 'mcpGet',
    summary: 'MCP over Streamable HTTP: the server-to-client stream (not offered: 405)',
    description,
    response: mcpMessageSchema,
    answers: [
      { code: 'method_not_allowed', description: 'Stateless server: no stream to open (`method_not_allowed`).' },
    ],
    resolve: stateless,
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__sandbox/mcp',
    operationId: 'mcpDelete',
    summary: 'MCP over Streamable HTTP: end a session (none: 405)',
    description,
    response: mcpMessageSchema,
    answers: [
      { code: 'method_not_allowed', description: 'Stateless server: no session to end (`method_not_allowed`).' },
    ],
    resolve: stateless,
  }),
]
