import { z } from 'zod'
import { paginated } from './pagination.js'
import { capturedMessageSchema } from './captured-message.js'
import { INBOUND_CHANNELS } from './constants.js'
import { paginationSchema } from './pagination.js'

/** Body of `POST /__sandbox/inbound`: a person's reply. */
export const inboundRequestSchema = z
  .strictObject({
    channel: z.enum(INBOUND_CHANNELS, { error: `\`channel\` must be ${INBOUND_CHANNELS.join(' or ')}.` }),
    key: z
      .string({ error: '`key` must be an API key string.' })
      .optional()
      .meta({ description: 'An API key: the reply goes to its account.' }),
    account: z
      .string({ error: '`account` must be an account id string.' })
      .optional()
      .meta({ description: 'An account id, instead of `key`.' }),
    from: z
      .string({ error: '`from` must be a phone number string.' })
      .meta({ description: 'The replying number (E.164).', example: '+14155550123' }),
    to: z
      .string({ error: '`to` must be a string.' })
      .max(64)
      .optional()
      .meta({ description: "The app's number; default the account id." }),
    text: z.string({ error: '`text` must be a string.' }).meta({
      description:
        'The reply. STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT opt out; START, UNSTOP, YES opt in (case-insensitive, trimmed).',
      example: 'STOP',
    }),
  })
  .meta({ id: 'InboundRequest' })

/** Answer of `POST /__sandbox/inbound`. */
export const inboundResultSchema = z
  .object({
    message: capturedMessageSchema,
    action: z.enum(['opt_out', 'opt_in']).nullable().meta({ description: "What the reply's keyword did, or null." }),
    opted_out: z.boolean().meta({ description: 'Whether `from` is opted out of the account after this reply.' }),
  })
  .meta({ id: 'InboundResult' })

export const optOutSchema = z
  .object({
    account: z.string(),
    number: z.string(),
    keyword: z.string().meta({ description: 'The keyword that opted it out (`STOP`…), or `manual`.' }),
    at: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'OptOut' })

/** `GET /__sandbox/opt-outs`: a page of opt-outs, oldest first, in the lists' envelope (issue 36, R19: 100,000 of them were one 10.7 MB answer). */
export const optOutListSchema = paginated(optOutSchema, 'OptOutList')

/** Body of `POST` and `DELETE /__sandbox/opt-outs`. */
export const optOutRequestSchema = z
  .strictObject({
    number: z.string({ error: '`number` must be a phone number string.' }).meta({ example: '+14155550123' }),
    key: z.string().optional(),
    account: z.string().optional(),
  })
  .meta({ id: 'OptOutRequest' })

const templateButtonSchema = z.union([z.string(), z.object({ text: z.string(), url: z.string().optional() })])

export const templateSchema = z
  .object({
    name: z.string(),
    language: z.string(),
    body: z.string(),
    header: z.string().optional(),
    footer: z.string().optional(),
    buttons: z.array(templateButtonSchema).optional(),
    placeholders: z.array(z.string()).meta({ description: 'The parameters a send must give, in order of first use.' }),
  })
  .meta({ id: 'WhatsappTemplate' })

export const templateListSchema = z
  .object({
    configured: z
      .boolean()
      .meta({ description: 'False when no templates are configured: every template name is then accepted.' }),
    data: z.array(templateSchema),
  })
  .meta({ id: 'WhatsappTemplateList' })

export const webhookAttemptSchema = z
  .object({
    id: z.string().meta({ description: "The attempt's id: what `POST /__sandbox/webhooks/{id}/replay` takes." }),
    webhook_id: z
      .string()
      .meta({ description: "The event's `webhook-id`, kept across retries, duplicates and replays." }),
    event: z.string(),
    url: z.string(),
    attempt: z.int(),
    trigger: z.enum(['event', 'retry', 'duplicate', 'replay']),
    at: z.string().meta({ format: 'date-time' }),
    state: z.enum(['queued', 'sending', 'done', 'failed']),
    request: z.object({ headers: z.record(z.string(), z.string()), body: z.string() }),
    response: z.object({ status: z.int(), body_excerpt: z.string(), latency_ms: z.number() }).nullable(),
    error: z.string().nullable().meta({ description: '`timeout`, `network_error`, `http_<status>`, or null.' }),
    next_retry_at: z.string().nullable(),
    account: z.string(),
    message_id: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'The captured message the event is about (`GET /__sandbox/messages/{id}`).' }),
  })
  .meta({ id: 'WebhookAttempt' })

/**
 * `GET /__sandbox/webhooks`: a page of attempts, the webhook URL, and, for the admin only, the
 * signing secret a receiver is wired with (a team token never sees it: it signs every account's events).
 */
export const webhookAttemptPageSchema = z
  .object({
    data: z.array(webhookAttemptSchema),
    pagination: paginationSchema,
    url: z
      .string()
      .nullable()
      .meta({ description: 'The webhook URL (`--webhook-url`), or null when none is configured.' }),
    secret: z.string().optional().meta({
      description:
        'The Standard Webhooks signing secret (`whsec_…`) a receiver verifies with; admin only, absent for a team token and when no URL is configured.',
    }),
  })
  .meta({ id: 'WebhookAttemptPage' })
