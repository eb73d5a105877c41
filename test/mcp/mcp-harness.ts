/**
 * What the MCP suites share: the tool list the published server.json names, an MCP client on a
 * sandbox in this process (the SDK's in-memory transport), one on a running server's
 * `/__sandbox/mcp` (Streamable HTTP), and the text of an answer.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { createSandbox, type SandboxOptions } from '../../src/index.js'
import { sandboxAsClient } from '../../src/mcp/local-client.js'
import { createMcpServer } from '../../src/mcp/tools.js'

/** The repository's server.json (the MCP registry's entry). */
export const SERVER_JSON = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../server.json'), 'utf8')) as {
  name: string
  description: string
  version: string
  packages: Array<{
    identifier: string
    version: string
    environmentVariables?: Array<{ name: string }>
    packageArguments?: Array<{ name?: string; value?: string }>
  }>
  _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: string[] } }
}

/** Every tool, sorted: what server.json publishes. */
export const MCP_TOOLS = SERVER_JSON._meta['io.modelcontextprotocol.registry/publisher-provided'].tools

/** An answer's text (every content block, one per line), and whether it is an error. */
export type Answer = { content: Array<{ type: string; text: string }>; isError?: boolean }
export const textOf = (answer: unknown) => (answer as Answer).content.map((c) => c.text).join('\n')

/** An MCP client on a new sandbox in this process (no HTTP). */
export async function inProcessClient(options: SandboxOptions = {}) {
  const sandbox = createSandbox({ deliveryMs: 0, ...options })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await createMcpServer(sandboxAsClient(sandbox)).connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  return {
    sandbox,
    client,
    close: async () => {
      await client.close()
      sandbox.dispose()
    },
  }
}

/** An MCP client on `origin`'s `/__sandbox/mcp`. */
export async function httpClient(origin: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/__sandbox/mcp`), { requestInit: { headers } }),
  )
  return client
}
