import { spawnSync } from 'node:child_process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ANSWER_BYTES } from '../../src/mcp/format.js'
import { CLI, startCli, type CliChild } from '../cli-child.js'
import { MCP_TOOLS } from './mcp-harness.js'

/**
 * The MCP server through the SDK's own Client: Streamable HTTP at /__sandbox/mcp of the built
 * CLI, and stdio by spawning `node dist/bin/sendbox.js mcp` (against a running sandbox with
 * --url, and with a sandbox of its own).
 */
type Answer = { content: Array<{ type: string; text: string }>; isError?: boolean }
const textOf = (answer: unknown) => (answer as Answer).content.map((c) => c.text).join('\n')
const env = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_'))) as Record<
    string,
    string
  >

let cli: CliChild
const send = (path: string, body: unknown) =>
  fetch(`${cli.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

beforeAll(async () => {
  cli = await startCli(['--no-ui', '--port', '0', '--admin-token', 'adm_mcp_test_token', '--delivery-ms', '0'])
})
afterAll(() => cli?.kill())

/** The checks every transport passes: each tool once, errors, limits, resources. */
async function exercise(client: Client) {
  await client.callTool({ name: 'reset_sandbox', arguments: {} })
  const tools = (await client.listTools()).tools.map((t) => t.name).sort()
  expect(tools).toEqual(MCP_TOOLS)

  const waiting = client.callTool({
    name: 'wait_for_message',
    arguments: { channel: 'email', to: 'ana@example.com', timeout: 5_000 },
  })
  await new Promise((resolve) => setTimeout(resolve, 100))
  await send('/email/send', {
    to: 'ana@example.com',
    subject: 'Reset your password',
    html: `<p>Code 482913. <a href="https://app.test/reset?t=1">Reset</a></p><p>${'long text '.repeat(5_000)}</p>`,
  })
  const got = textOf(await waiting)
  expect(got).toMatch(
    /^message msg_\S+: email, outbound, \w+, created \S+, account \S+, key \S+\. Quoted values are the sender's content/,
  )
  expect(got).toContain('\nto: "ana@example.com"\n')
  expect(got).toContain('\nsubject: "Reset your password"\n')
  expect(got).toContain('\ncodes: ["482913"]\n')
  expect(got).toContain('links (1):\n  "https://app.test/reset?t=1"')
  expect(got).toMatch(/status history: queued \S+/)
  expect(got).toMatch(/\n\[… \d+ more characters cut; the whole message is the resource sendbox:\/\/messages\/msg_/)
  const id = /^message (msg_\w+)/.exec(got)![1]

  expect(textOf(await client.callTool({ name: 'list_messages', arguments: { channel: 'email' } }))).toMatch(
    /^1 message matches \(newest first\)\. Quoted values .*\nmsg_\w+ email outbound to="ana@example\.com" \w+ \S+ subject="Reset your password" codes=\["482913"\]$/,
  )
  expect(
    textOf(await client.callTool({ name: 'list_messages', arguments: { channel: 'email', direction: 'inbound' } })),
  ).toBe('No captured messages match.')
  expect(textOf(await client.callTool({ name: 'get_message', arguments: { id } }))).toContain('codes: ["482913"]')
  const checked = textOf(await client.callTool({ name: 'check_message', arguments: { id } }))
  expect(checked).toMatch(new RegExp(`^Check report of ${id} \\(email\\): score \\d+/100; 0 errors`))
  expect(checked).toContain('```untrusted-data\n')
  expect(checked).toContain('info spam.not-configured [spam]')
  expect(((await client.callTool({ name: 'check_message', arguments: { id: 'msg_nope' } })) as Answer).isError).toBe(
    true,
  )
  const missing = (await client.callTool({ name: 'get_message', arguments: { id: 'msg_nope' } })) as Answer
  expect(missing.isError).toBe(true)

  const timeout = (await client.callTool({
    name: 'wait_for_message',
    arguments: { channel: 'email', to: 'bo@example.com', timeout: 100 },
  })) as Answer
  expect(timeout.isError).toBe(true)
  expect(textOf(timeout)).toBe(
    'no Email to bo@example.com in 100 ms; the last Email went to ana@example.com "Reset your password" (delivered)',
  )

  expect(
    textOf(await client.callTool({ name: 'add_fault', arguments: { status: 503, path: '/v1/sms/send', times: 2 } })),
  ).toMatch(/^Added flt_\d+: 503 on any method \/v1\/sms\/send, 2 answers left\.$/)
  const wrong = (await client.callTool({ name: 'add_fault', arguments: { status: 200 } })) as Answer
  expect(wrong.isError).toBe(true)
  expect(textOf(wrong)).toContain('at status')
  expect(textOf(await client.callTool({ name: 'add_fault', arguments: { status: 503, nope: 1 } }))).toContain('nope')
  expect(textOf(await client.callTool({ name: 'clear_faults', arguments: {} }))).toBe('Cleared 1 fault.')
  expect(textOf(await client.callTool({ name: 'list_requests', arguments: { limit: 5 } }))).toMatch(
    /^1 request \(newest first\):\n#\d+ \S+ POST "\/v1\/email\/send" → 200 /,
  )
  expect(textOf(await client.callTool({ name: 'advance_clock', arguments: { advance_ms: 60_000 } }))).toMatch(
    /^Sandbox time is \S+ \(\+\d+ ms from the real clock\)\.$/,
  )
  expect(textOf(await client.callTool({ name: 'advance_clock', arguments: { advance_ms: -1 } }))).toContain(
    'at advance_ms',
  )

  const resources = await client.listResources()
  expect(resources.resources.map((r) => r.uri)).toEqual([`sendbox://messages/${id}`])
  const read = await client.readResource({ uri: `sendbox://messages/${id}` })
  expect(new TextEncoder().encode((read.contents[0] as { text: string }).text).length).toBeLessThanOrEqual(
    MAX_ANSWER_BYTES,
  )

  await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      send('/email/send', { to: `p${i}@example.com`, subject: 'S'.repeat(900), html: 'x' }),
    ),
  )
  const big = textOf(await client.callTool({ name: 'list_messages', arguments: { limit: 100 } }))
  expect(new TextEncoder().encode(big).length).toBeLessThanOrEqual(MAX_ANSWER_BYTES)
  expect(big).toContain('[… cut: the answer was')
  expect(textOf(await client.callTool({ name: 'reset_sandbox', arguments: { scope: 'messages' } }))).toBe(
    'Reset messages.',
  )
  await client.callTool({ name: 'clock_reset_is_not_a_tool', arguments: {} }).then(
    (a) => expect((a as Answer).isError).toBe(true),
    (e: Error) => expect(e.message).toContain('not found'),
  )
  await fetch(`${cli.origin}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'x-sendbox-admin-token': 'adm_mcp_test_token', 'content-type': 'application/json' },
    body: '{"reset":true}',
  })
}

describe('MCP over Streamable HTTP (/__sandbox/mcp of the built server)', () => {
  it('answers every tool, behind the admin token', async () => {
    const refused = new Client({ name: 'test', version: '1' })
    await expect(
      refused.connect(new StreamableHTTPClientTransport(new URL(`${cli.origin}/__sandbox/mcp`))),
    ).rejects.toThrow(/401|admin token/)
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${cli.origin}/__sandbox/mcp`), {
        requestInit: { headers: { 'x-sendbox-admin-token': 'adm_mcp_test_token' } },
      }),
    )
    await exercise(client)
    await client.close()
    const get = await fetch(`${cli.origin}/__sandbox/mcp`, {
      headers: { 'x-sendbox-admin-token': 'adm_mcp_test_token', accept: 'text/event-stream' },
    })
    expect(get.status).toBe(405)
    expect((await get.json()).error.code).toBe('method_not_allowed')
  }, 60_000)
})

describe('sendbox mcp over stdio', () => {
  it('drives a running sandbox with --url', async () => {
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--url', cli.origin, '--admin-token', 'adm_mcp_test_token'],
        env: env(),
        stderr: 'pipe',
      }),
    )
    await exercise(client)
    await client.close()
  }, 60_000)

  it('starts a sandbox of its own without --url, serving the API on --port', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--port', '0', '--delivery-ms', '0'],
      env: env(),
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(transport)
    await expect.poll(() => stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/)
    const api = /listening on (\S+)/.exec(stderr)![1]
    await fetch(`${api}/sms/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+14155550123', message: 'Your code is 123456' }),
    })
    expect(
      textOf(await client.callTool({ name: 'wait_for_code', arguments: { channel: 'sms', timeout: 2_000 } })),
    ).toMatch(/^code: "123456"\n/)
    await client.close()
  }, 60_000)

  it('refuses a non-loopback --host without an admin token', () => {
    const result = spawnSync(process.execPath, [CLI, 'mcp', '--host', '0.0.0.0', '--port', '0'], {
      env: env(),
      encoding: 'utf8',
      input: '',
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toBe('sendbox mcp: --host 0.0.0.0 is not a loopback address: give --admin-token TOKEN too\n')
  })

  it('says in one line when --url is not a sendbox', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--url', 'http://127.0.0.1:9'],
      env: env(),
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const client = new Client({ name: 'test', version: '1' })
    await expect(client.connect(transport)).rejects.toThrow()
    await expect.poll(() => stderr).toMatch(/^sendbox mcp: http:\/\/127\.0\.0\.1:9 did not answer/)
  })
})
