import { z } from 'zod'
import { PLANS, RESET_SCOPES } from './constants.js'

/**
 * What the sandbox controls answer with, as zod schemas: the OpenAPI document renders them, the
 * route table names them as each control's response. Captured messages and journal entries have
 * their own files (`captured-message.ts`, `journal.ts`).
 */

export { RESET_SCOPES, type ResetScope } from './constants.js'

/** A fault in force, as `POST /__sandbox/faults` and `GET /__sandbox/faults` answer it. */
export const faultSchema = z
  .object({
    id: z.string().meta({ example: 'flt_1' }),
    status: z.int(),
    code: z.string().nullable(),
    path: z.string().nullable(),
    method: z.string().nullable(),
    remaining: z.int().nullable().meta({ description: 'Answers left before it expires; null = until cleared.' }),
    probability: z.number(),
    delay_ms: z.int(),
    hits: z.int(),
    account: z.string().nullable().meta({ description: "Only requests of this account's keys; null = every account." }),
  })
  .meta({ id: 'Fault' })

/** `GET /__sandbox/whoami`: who the token offered names. */
export const whoamiSchema = z
  .object({
    role: z.enum(['admin', 'team']).meta({
      description:
        '`admin`: the admin token (or a sandbox without one): every account and control. `team`: a `--team-token`: its accounts only.',
    }),
    name: z.string().nullable().meta({ description: "The team token's name; null for the admin." }),
    accounts: z
      .array(z.string())
      .meta({ description: 'The accounts this token sees (every configured account for the admin).' }),
  })
  .meta({ id: 'Whoami' })

/** `GET /__sandbox/health`. */
export const healthSchema = z
  .object({
    ok: z.literal(true),
    version: z.string(),
    messages: z.int(),
    messages_evicted: z.int(),
    max_messages: z.int(),
    outbox_bytes: z
      .int()
      .meta({ description: 'Bytes the captured messages hold, roughly (what the byte budget counts).' }),
    max_outbox_bytes: z.int(),
    waiters: z.int().meta({ description: 'Waits (`/messages/wait`, `outbox.waitFor`) in progress.' }),
    event_clients: z.int().meta({ description: 'Subscribers of the event feed (`/events` clients among them).' }),
    requests: z.int(),
    faults: z.int(),
    data: z
      .string()
      .nullable()
      .meta({ description: 'The store file kept across restarts (`--data`), or null (memory only).' }),
  })
  .meta({ id: 'Health' })

/** What `GET /__sandbox/health` answers (the domain's `health()` should be typed with it). */
export type Health = z.infer<typeof healthSchema>

/** `{ ok: true }`. */
export const okSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' })

/** `POST /__sandbox/reset`. */
export const resetResultSchema = z
  .object({ ok: z.literal(true), scope: z.enum(['all', ...RESET_SCOPES]) })
  .meta({ id: 'ResetResult' })

/** `GET /__sandbox/faults`. */
export const faultListSchema = z.object({ data: z.array(faultSchema) }).meta({ id: 'FaultList' })

/** One configured API key, as `GET /__sandbox/keys` lists it (the web inbox's key picker). */
export const keyInfoSchema = z
  .object({
    key: z.string().meta({ description: 'The key in full when it starts with `test_`, else masked (`live…23`).' }),
    plan: z.enum(PLANS),
    plan_name: z.string(),
    account: z.string(),
    limit: z.int().meta({ description: 'Requests per minute.' }),
    used: z.int().meta({ description: 'Requests counted in the rolling 60-second window now.' }),
  })
  .meta({ id: 'KeyInfo' })

/** `GET /__sandbox/keys`. */
export const keyListSchema = z.object({ data: z.array(keyInfoSchema) }).meta({ id: 'KeyList' })

/** `GET`/`POST /__sandbox/clock`. */
export const clockStateSchema = z
  .object({
    now: z.string().meta({ format: 'date-time', description: 'Sandbox time, ISO 8601 UTC.' }),
    offset_ms: z.number().meta({ description: 'How far sandbox time is from the real clock, in milliseconds.' }),
    frozen: z.boolean(),
    controllable: z.boolean().meta({
      description:
        'False when the sandbox was given its own `now` option: that function rules and the clock cannot be moved (POST answers 400).',
    }),
  })
  .meta({ id: 'ClockState' })

/** `POST /__sandbox/clock`: one or more changes, applied reset → freeze → advance. */
export const clockChangeSchema = z
  .strictObject({
    advance_ms: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({
      description: 'Milliseconds to move sandbox time forward (lifecycle steps come due, rate-limit windows slide).',
    }),
    freeze: z
      .boolean()
      .optional()
      .meta({ description: 'true stops sandbox time; false lets it run again from where it stands.' }),
    reset: z.literal(true).optional().meta({ description: 'Back to the real clock, running.' }),
  })
  .meta({ id: 'ClockChange', minProperties: 1 })
