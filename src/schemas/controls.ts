import { z } from 'zod'
import { CHANNELS, MESSAGE_STATUSES } from '../domain/outbox.js'
import { PLANS } from '../domain/plans.js'
import { RESET_SCOPES } from '../domain/sandbox.js'

/**
 * What the sandbox controls answer with, as zod schemas: the OpenAPI document renders them, the
 * route table names them as each control's response.
 */

const isoTime = z.string().meta({ format: 'date-time' })

const statusChangeSchema = z.object({
  status: z.enum(MESSAGE_STATUSES),
  at: isoTime,
  reason: z.string().optional(),
})

/** A captured message as `GET /__sandbox/messages/{id}` answers it. */
export const capturedMessageSchema = z
  .object({
    message_id: z.string().meta({ example: 'msg_3kTn0aZp8QxW1cVb5yRm2LsD' }),
    channel: z.enum(CHANNELS),
    account: z.string(),
    plan: z.enum(PLANS),
    key: z.string().meta({ description: 'The sending API key, masked.' }),
    to: z.string(),
    request: z.record(z.string(), z.unknown()).meta({ description: 'The request body exactly as the client sent it.' }),
    status: z.enum(MESSAGE_STATUSES),
    reason: z.string().nullable().meta({ description: 'Why a failed message failed; null otherwise.' }),
    status_history: z.array(statusChangeSchema),
    created_at: isoTime,
    email: z
      .object({
        from: z.object({ email: z.string(), name: z.string().nullable() }).nullable(),
        subject: z.string(),
        html: z.string(),
      })
      .optional(),
    sms: z
      .object({
        text: z.string(),
        from: z.string().nullable(),
        encoding: z.enum(['GSM-7', 'UCS-2']),
        units: z.int().meta({ description: 'Septets for GSM-7, UTF-16 code units for UCS-2.' }),
        segments: z.int(),
        characters: z.int().meta({ description: 'Unicode code points in the text.' }),
      })
      .optional(),
    whatsapp: z
      .object({
        template: z.string(),
        language: z.string(),
        parameters: z.record(z.string(), z.string()),
        preview: z.string(),
      })
      .optional(),
  })
  .meta({ id: 'CapturedMessage', description: 'A message the API accepted, and what happened to it since (sandbox only).' })

/** One line of the request journal. */
export const journalEntrySchema = z
  .object({
    id: z.int(),
    at: isoTime,
    kind: z.enum(['api', 'webhook']),
    method: z.string(),
    path: z.string(),
    status: z.int(),
    duration_ms: z.number(),
    error_code: z.string().nullable(),
    account: z.string().nullable(),
    key: z.string().nullable().meta({ description: 'The API key, masked; never the key itself.' }),
  })
  .meta({ id: 'JournalEntry' })

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
  })
  .meta({ id: 'Fault' })

/** `GET /__sandbox/health`. */
export const healthSchema = z
  .object({
    ok: z.literal(true),
    version: z.string(),
    messages: z.int(),
    messages_evicted: z.int(),
    max_messages: z.int(),
    requests: z.int(),
    faults: z.int(),
  })
  .meta({ id: 'Health' })


/** `{ ok: true }`. */
export const okSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' })

/** `POST /__sandbox/reset`. */
export const resetResultSchema = z
  .object({ ok: z.literal(true), scope: z.enum(['all', ...RESET_SCOPES] as [string, ...string[]]) })
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
