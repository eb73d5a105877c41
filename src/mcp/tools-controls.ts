/**
 * MCP tools of the sandbox's controls: the request journal, faults, the clock and reset. Argument
 * names are the HTTP bodies' (`advance_ms` as `POST /__sandbox/clock`, a fault as `POST
 * /__sandbox/faults`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { SandboxClient } from '../client/index.js'
import { clockChangeSchema, RESET_SCOPES } from '../contract/controls.js'
import { faultSpecSchema } from '../domain/faults.js'
import { clockLine, faultLine, requestList } from './format-controls.js'
import { accountArg, answer, limitArg } from './tool-kit.js'

/** What each argument of add_fault means (a field added to the fault spec fails to compile here until described). */
const FAULT_ARGS: Record<keyof typeof faultSpecSchema.shape, string> = {
  status: 'The status to answer with: 400, 401, 404, 429 or a 5xx.',
  code: "The error code of the answer (snake_case); default the status's own (500 internal_error, 429 rate_limit_exceeded…).",
  path: 'Only requests to this path, exactly, /v1 included (like /v1/sms/send); default any path.',
  method: 'Only requests with this method (GET, POST, PUT, DELETE, PATCH); default any.',
  times: 'How many answers it forces before it expires; default until cleared.',
  probability: 'The chance, 0 to 1, that a matching request fails; default 1.',
  delay_ms: 'Milliseconds to wait before answering; default 0.',
  account: 'Only requests of this account; default every account.',
}

const faultShape = Object.fromEntries(
  Object.entries(faultSpecSchema.shape).map(([name, schema]) => [
    name,
    schema.describe(FAULT_ARGS[name as keyof typeof FAULT_ARGS]),
  ]),
) as typeof faultSpecSchema.shape

// Built once per process (a server is made per HTTP request).
const requestsInput = z.strictObject({ account: accountArg, limit: limitArg('requests') })
const faultInput = z.strictObject(faultShape)
const noInput = z.strictObject({})
const clockInput = z.strictObject({
  advance_ms: clockChangeSchema.shape.advance_ms.unwrap().describe('Milliseconds to move sandbox time forward.'),
})
const resetInput = z.strictObject({
  scope: z
    .enum(RESET_SCOPES)
    .optional()
    .describe(`Reset only this part: ${RESET_SCOPES.join(', ')}.`),
})

/** list_requests, add_fault, clear_faults, advance_clock, reset_sandbox. */
export function registerControlTools(server: McpServer, client: SandboxClient): void {
  server.registerTool(
    'list_requests',
    {
      description:
        'The request journal (newest first): method, path, status, duration, error code and message. Paths, queries and error messages are quoted: a client chose them.',
      inputSchema: requestsInput,
    },
    ({ account, limit: max = 20 }) =>
      answer(async () => requestList(await client.requests.list({ account, limit: max }))),
  )

  server.registerTool(
    'add_fault',
    {
      description:
        'Make matching API requests fail (status, code, path, method, times, probability, delay_ms, account), as POST /__sandbox/faults.',
      inputSchema: faultInput,
    },
    (spec) => answer(async () => `Added ${faultLine(await client.faults.add(spec))}.`),
  )

  server.registerTool('clear_faults', { description: 'Remove every fault in force.', inputSchema: noInput }, () =>
    answer(async () => {
      const count = (await client.faults.list()).length
      await client.faults.clear()
      return `Cleared ${count} fault${count === 1 ? '' : 's'}.`
    }),
  )

  server.registerTool(
    'advance_clock',
    {
      description:
        'Move sandbox time forward, as POST /__sandbox/clock { advance_ms }: lifecycle steps come due, rate-limit windows slide.',
      inputSchema: clockInput,
    },
    ({ advance_ms }) => answer(async () => clockLine(await client.clock.advance(advance_ms))),
  )

  server.registerTool(
    'reset_sandbox',
    { description: 'Back to the seeded state: everything, or only the part named by scope.', inputSchema: resetInput },
    ({ scope }) => answer(async () => `Reset ${(await client.reset(scope)).scope}.`),
  )
}
