/**
 * The MCP server of a sandbox: tools and resources over a {@link SandboxClient} (HTTP to a running
 * sandbox, or one in this process). Loaded lazily: only `sendbox mcp` and `/__sandbox/mcp` pay
 * for the SDK.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { OutboxFilter, SandboxClient } from '../client/index.js'
import { faultSpecSchema } from '../domain/faults.js'
import { CHANNELS, MESSAGE_STATUSES } from '../contract/captured-message.js'
import { clockChangeSchema, RESET_SCOPES } from '../contract/controls.js'
import { SINCE_PATTERN } from '../contract/query.js'
import { VERSION } from '../version.js'
import { registerCheckTool } from './check-tool.js'
import { capped, clockLine, faultLine, messageDetail, messageLine, messageList, requestList } from './format.js'

/** Longest wait_for_message may wait, in milliseconds. */
export const MAX_TOOL_WAIT_MS = 120_000

const text = (answer: string) => ({ content: [{ type: 'text' as const, text: capped(answer) }] })
const toolError = (answer: string) => ({ ...text(answer), isError: true })

/** The outbox filter as tool arguments (the names and values of `GET /__sandbox/messages`). */
const filterShape = {
  channel: z.enum(CHANNELS).optional().describe('Only this channel.'),
  to: z.string().max(1024).optional().describe('Exact recipient (email address or +E.164 phone), case-insensitive.'),
  status: z.enum(MESSAGE_STATUSES).optional().describe('Only messages in this lifecycle status.'),
  since: z.string().regex(SINCE_PATTERN, 'must be an ISO 8601 time or Unix milliseconds').optional().describe('Only messages created at or after it: ISO 8601 or Unix milliseconds.'),
  account: z.string().max(1024).optional().describe('Only this account.'),
  q: z.string().max(1024).optional().describe('Case-insensitive substring of recipient, sender, subject, text and template.'),
  from: z.string().max(1024).optional().describe('Case-insensitive substring of the sender.'),
  subject: z.string().max(1024).optional().describe('Case-insensitive substring of the email subject.'),
  template: z.string().max(1024).optional().describe('The WhatsApp template name, exactly.'),
}
type FilterArgs = { [K in keyof typeof filterShape]?: z.output<(typeof filterShape)[K]> }

/** The tool arguments as an outbox filter (`since` in Unix milliseconds). */
function filterOf(args: FilterArgs): OutboxFilter {
  const { since, ...rest } = args
  const filter: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) filter[key] = value
  if (since !== undefined) filter.since = /^[0-9]+$/.test(since) ? Number(since) : Date.parse(since)
  return filter as OutboxFilter
}

/** A tool's body: its answer text, or a tool error with the message of what went wrong. */
async function answer(run: () => Promise<string>) {
  try {
    return text(await run())
  } catch (error) {
    return toolError((error as Error)?.message ?? String(error))
  }
}

/** An MCP server with sendbox's tools and the captured messages as resources. */
export function createMcpServer(client: SandboxClient): McpServer {
  const server = new McpServer({ name: 'sendbox', version: VERSION }, { instructions: 'A local sandbox of a messaging API: nothing is delivered; every email, SMS and WhatsApp message the app sends is captured here. Use wait_for_message after triggering a send, then read links and codes from the answer.' })
  const limit = z.number().int().min(1).max(100).optional()

  server.registerTool('list_messages', { description: 'List captured messages (newest first), filtered by channel, recipient, status, time or text.', inputSchema: z.strictObject({ ...filterShape, limit: limit.describe('How many to show, 1 to 100 (default 20).') }) }, ({ limit: max = 20, ...args }) =>
    answer(async () => {
      const all = await client.outbox.list(filterOf(args))
      return messageList(all.slice(0, max), all.length)
    }))

  server.registerTool('get_message', { description: 'One captured message: text, links, one-time codes and status history.', inputSchema: z.strictObject({ id: z.string().min(1).max(200).describe('The message id (msg_…).') }) }, ({ id }) =>
    answer(async () => {
      const message = await client.outbox.get(id)
      if (!message) throw new Error(`No captured message with id "${id}" (argument id). list_messages shows the ids.`)
      return messageDetail(message)
    }))

  server.registerTool('wait_for_message', {
    description: 'Wait for a message matching the filter (the newest at or after since, else the next to come); on timeout, an error naming the filter and the near misses.',
    inputSchema: z.strictObject({ ...filterShape, timeout_ms: z.number().int().min(0).max(MAX_TOOL_WAIT_MS).optional().describe(`How long to wait, in milliseconds (default 10000, at most ${MAX_TOOL_WAIT_MS}).`) }),
  }, ({ timeout_ms: timeout = 10_000, ...args }, extra) =>
    answer(async () => messageDetail(await client.outbox.waitFor(filterOf(args), { timeout, signal: extra.signal, since: filterOf(args).since }))))

  registerCheckTool(server, client, answer)

  server.registerTool('list_requests', { description: 'The request journal (newest first): method, path, status, duration, error code and message.', inputSchema: z.strictObject({ account: z.string().max(1024).optional().describe('Only this account.'), limit: limit.describe('How many, 1 to 100 (default 20).') }) }, ({ account, limit: max = 20 }) =>
    answer(async () => requestList(await client.requests.list({ account, limit: max }))))

  server.registerTool('add_fault', { description: 'Make matching API requests fail (status, code, path, method, times, probability, delay_ms).', inputSchema: z.strictObject(faultSpecSchema.shape) }, (spec) =>
    answer(async () => `Added ${faultLine(await client.faults.add(spec))}.`))

  server.registerTool('clear_faults', { description: 'Remove every fault in force.', inputSchema: z.strictObject({}) }, () =>
    answer(async () => {
      const count = (await client.faults.list()).length
      await client.faults.clear()
      return `Cleared ${count} fault${count === 1 ? '' : 's'}.`
    }))

  server.registerTool('advance_clock', { description: 'Move sandbox time forward: lifecycle steps come due, rate-limit windows slide.', inputSchema: z.strictObject({ ms: clockChangeSchema.shape.advance_ms.unwrap().describe('Milliseconds to move forward.') }) }, ({ ms }) =>
    answer(async () => clockLine(await client.clock.advance(ms))))

  server.registerTool('reset_sandbox', { description: 'Back to the seeded state: everything, or only the part named by scope.', inputSchema: z.strictObject({ scope: z.enum(RESET_SCOPES).optional().describe(`Reset only this part: ${RESET_SCOPES.join(', ')}.`) }) }, ({ scope }) =>
    answer(async () => `Reset ${(await client.reset(scope)).scope}.`))

  server.registerResource('message', new ResourceTemplate('sendbox://messages/{id}', {
    list: async () => ({
      resources: (await client.outbox.list({}, { limit: 50 })).map((m) => ({ uri: `sendbox://messages/${m.message_id}`, name: messageLine(m).slice(0, 200), mimeType: 'text/plain' })),
    }),
  }), { description: 'A captured message (the newest 50 are listed).', mimeType: 'text/plain' }, async (uri, { id }) => {
    const message = await client.outbox.get(String(id))
    if (!message) throw new Error(`No captured message with id "${String(id)}".`)
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: capped(messageDetail(message)) }] }
  })
  return server
}
