import { z } from 'zod'
import { capturedMessageSummarySchema, statusChangeSchema } from './captured-message.js'
import { journalEntrySchema } from './journal.js'

const STREAM_EVENTS = [
  z.object({ type: z.literal('message.captured'), message: capturedMessageSummarySchema }),
  z.object({ type: z.literal('message.status'), message: capturedMessageSummarySchema, change: statusChangeSchema }),
  z.object({ type: z.literal('message.deleted'), message_id: z.string(), account: z.string() }),
  z.object({ type: z.literal('request'), entry: journalEntrySchema }),
  z.object({
    type: z.literal('reset'),
    scope: z.string(),
    accounts: z
      .array(z.string())
      .optional()
      .meta({ description: 'The accounts reset, when a team token reset its own (absent: every account).' }),
  }),
] as const

/** The event types, in the stream's documentation order. */
export const SANDBOX_EVENT_TYPES = STREAM_EVENTS.map((event) => event.shape.type.value)

/**
 * What each `data:` line of `GET /__sandbox/events` holds: the event, with its `type`. Messages
 * are sent as the list shows them (summaries: no request body, no HTML); the whole message is at
 * `GET /__sandbox/messages/{id}`. The domain's in-process events carry whole messages
 * (`src/domain/events.ts`, which checks it has the same types).
 */
export const sandboxEventSchema = z.discriminatedUnion('type', [...STREAM_EVENTS]).meta({
  id: 'SandboxEvent',
  description: `One event of the stream: ${SANDBOX_EVENT_TYPES.join(', ')}. The SSE \`event:\` field repeats \`type\`.`,
})

/** One event of the stream, as a client reads it. */
export type StreamEvent = z.infer<typeof sandboxEventSchema>
