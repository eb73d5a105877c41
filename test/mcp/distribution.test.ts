import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultOf, envOf } from '../../src/contract/settings.js'
import { startCli, type CliChild } from '../cli-child.js'
import { httpClient, inProcessClient, MCP_TOOLS, SERVER_JSON } from './mcp-harness.js'

/**
 * Issue 33 item 4: sendbox as agents install it. `server.json` (the MCP registry's entry) is valid
 * against the registry's published schema (vendored in test/fixtures/mcp-registry with its source)
 * and does not drift from the package (name, version) nor from the tools the server lists; the
 * project's `.mcp.json` (Claude Code) and `.vscode/mcp.json` (VS Code) point at the MCP endpoint of
 * a sandbox on the default port.
 */
const ROOT = resolve(import.meta.dirname, '../..')
const read = (path: string) => JSON.parse(readFileSync(resolve(ROOT, path), 'utf8'))
const PACKAGE = read('package.json') as { name: string; version: string; mcpName: string }
const SCHEMA = read('test/fixtures/mcp-registry/server.schema.json') as { $id: string }
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false })
  addFormats(ajv)
  return ajv.compile(SCHEMA)
}

describe('server.json', () => {
  it("is valid against the registry's published schema, and the schema catches a bad entry", () => {
    const validate = validator()
    expect(validate(SERVER_JSON), JSON.stringify(validate.errors)).toBe(true)
    expect(read('server.json').$schema).toBe(SCHEMA.$id)
    // The schema is the real thing: what the registry refuses, it refuses too.
    expect(validate({ ...SERVER_JSON, description: 'x'.repeat(101) })).toBe(false)
    expect(validate({ ...SERVER_JSON, name: 'no-slash' })).toBe(false)
    expect(validate({ ...SERVER_JSON, packages: [{ ...SERVER_JSON.packages[0], version: 'latest' }] })).toBe(false)
  })

  it('names the package and version of package.json, and the settings the CLI reads', () => {
    expect(SERVER_JSON.version).toBe(PACKAGE.version)
    // The registry checks an npm package's ownership by its package.json's mcpName.
    expect(SERVER_JSON.name).toBe(PACKAGE.mcpName)
    const [npm] = SERVER_JSON.packages
    expect(npm).toMatchObject({
      registryType: 'npm',
      identifier: PACKAGE.name,
      version: PACKAGE.version,
      runtimeHint: 'npx',
      transport: { type: 'stdio' },
    })
    expect(npm.packageArguments?.map((a) => a.value ?? a.name)).toEqual(['mcp', '--url'])
    expect(npm.environmentVariables?.map((v) => v.name)).toEqual([envOf('admin-token')])
  })

  it('lists the tools the server has, no more, no fewer', async () => {
    const { client, close } = await inProcessClient()
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS)
    expect(MCP_TOOLS).toEqual([...MCP_TOOLS].sort())
    await close()
  })
})

describe('.mcp.json and .vscode/mcp.json', () => {
  let cli: CliChild
  beforeAll(async () => {
    cli = await startCli(['--no-ui', '--port', '0'])
  })
  afterAll(() => cli?.kill())

  const configs = {
    '.mcp.json': (read('.mcp.json') as { mcpServers: Record<string, { type: string; url: string }> }).mcpServers,
    '.vscode/mcp.json': (read('.vscode/mcp.json') as { servers: Record<string, { type: string; url: string }> })
      .servers,
  }

  for (const [file, servers] of Object.entries(configs)) {
    it(`${file} names sendbox's MCP endpoint on the default port, and that endpoint lists the tools`, async () => {
      expect(Object.keys(servers)).toEqual(['sendbox'])
      const { type, url } = servers.sendbox
      expect(type).toBe('http')
      const endpoint = new URL(url)
      expect(endpoint.host).toBe(`127.0.0.1:${defaultOf('port')}`)
      expect(endpoint.pathname).toBe('/__sandbox/mcp')
      // The same URL on the port this test's sandbox got.
      const client = await httpClient(`http://127.0.0.1:${cli.port}`)
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS)
      await client.close()
    })
  }
})
