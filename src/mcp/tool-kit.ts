/**
 * What every MCP tool module shares: the outbox filter as tool arguments (the names of
 * `GET /__sandbox/messages` and the client), the wait's `timeout` (HTTP's name and bounds), and
 * the answer wrapper that turns a thrown error into a one-line tool error.
 */
import { z } from 'zod'
import type { OutboxFilter } from '../client/index.js'
import { CHANNELS, DIRECTIONS, MESSAGE_STATUSES } from '../contract/captured-message.js'
import { SINCE_PATTERN } from '../contract/query.js'
import { DEFAULT_WAIT_MS, MAX_WAIT_MS } from '../http/capped-wait.js'
import { capped, oneLine } from './format.js'

/** A text answer, capped. */
export const text = (answer: string) => ({ content: [{ type: 'text' as const, text: capped(answer) }] })
const toolError = (answer: string) => ({ ...text(answer), isError: true })

/** A tool's body: its answer text, or a tool error with the message of what went wrong, on one line. */
export async function answer(run: () => Promise<string>) {
  try {
    return text(await run())
  } catch (error) {
    return toolError(oneLine((error as Error)?.message ?? String(error)))
  }
}

/** `limit` of a list tool. */
export const limitArg = (what: string, max = 100, fallback = 20) =>
  z.number().int().min(1).max(max).optional().describe(`How many ${what} to show, 1 to ${max} (default ${fallback}).`)

/** `account` of a control. */
export const accountArg = z
  .string()
  .min(1)
  .max(1024)
  .optional()
  .describe('Only this account (an account id, as GET /__sandbox/keys lists them).')

/** The outbox filter as tool arguments (the names and values of `GET /__sandbox/messages`). */
export const filterShape = {
  channel: z.enum(CHANNELS).optional().describe('Only this channel.'),
  direction: z
    .enum(DIRECTIONS)
    .optional()
    .describe('outbound: sent by the app through the API; inbound: a (simulated) reply to it.'),
  to: z.string().max(1024).optional().describe('Exact recipient (email address or +E.164 phone), case-insensitive.'),
  status: z.enum(MESSAGE_STATUSES).optional().describe('Only messages in this lifecycle status.'),
  since: z
    .string()
    .regex(SINCE_PATTERN, 'must be an ISO 8601 time or Unix milliseconds')
    .optional()
    .describe('Only messages created at or after it: ISO 8601 or Unix milliseconds.'),
  account: accountArg,
  q: z
    .string()
    .max(1024)
    .optional()
    .describe(
      'Words that must all appear (any order, case-insensitive) in recipient, sender, subject, text, template and its parameters.',
    ),
  from: z.string().max(1024).optional().describe('Case-insensitive substring of the sender.'),
  subject: z.string().max(1024).optional().describe('Case-insensitive substring of the email subject.'),
  template: z.string().max(1024).optional().describe('The WhatsApp template name, exactly.'),
}
export type FilterArgs = { [K in keyof typeof filterShape]?: z.output<(typeof filterShape)[K]> }

/** A wait's `timeout`: the name, unit, default and most of `GET /__sandbox/messages/wait` and the client. */
export const timeoutArg = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_MS)
  .optional()
  .describe(
    `How long to wait, in milliseconds (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS}). On timeout the answer is an error naming the filter and the nearest misses.`,
  )

/** The tool arguments as an outbox filter (`since` in Unix milliseconds). */
export function filterOf(args: FilterArgs): OutboxFilter {
  const { since, ...rest } = args
  const filter: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) filter[key] = value
  if (since !== undefined) filter.since = /^[0-9]+$/.test(since) ? Number(since) : Date.parse(since)
  return filter as OutboxFilter
}

export { DEFAULT_WAIT_MS, MAX_WAIT_MS }
