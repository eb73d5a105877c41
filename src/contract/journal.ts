import { z } from 'zod'

/** Longest text kept of a request or answer body in the journal (UTF-16 units). */
export const JOURNAL_BODY_LIMIT = 4096

/** One line of the request journal: an API request or a webhook attempt. */
export const journalEntrySchema = z
  .object({
    id: z.int(),
    at: z.string().meta({ format: 'date-time', description: 'When the request arrived (ISO 8601 UTC).' }),
    kind: z.enum(['api', 'webhook']),
    method: z.string(),
    path: z.string(),
    query: z.string().nullable().meta({ description: 'The query string without `?`, or null.' }),
    status: z.int(),
    duration_ms: z.number(),
    error_code: z.string().nullable(),
    error_message: z.string().nullable(),
    account: z.string().nullable(),
    key: z.string().nullable().meta({ description: 'The API key, masked; never the key itself.' }),
    request_body: z
      .string()
      .nullable()
      .meta({ description: `The request body as sent, cut to ${JOURNAL_BODY_LIMIT} characters.` }),
    response_body: z
      .string()
      .nullable()
      .meta({
        description: `The answer's body for errors, cut to ${JOURNAL_BODY_LIMIT} characters; null for successes.`,
      }),
    request_headers: z.record(z.string(), z.string()).nullable().meta({
      description:
        "The request's headers (names lower-cased), `Authorization` and the admin token masked; null for webhook attempts.",
    }),
    message_id: z.string().nullable().meta({
      description:
        'The captured message an accepted send created, or the message a webhook attempt is about (`GET /__sandbox/messages/{id}`); null otherwise.',
    }),
    fault_id: z.string().nullable().optional().meta({
      description:
        'The injected fault (`flt_…`, `GET /__sandbox/faults`) that answered this request; null or absent otherwise.',
    }),
  })
  .meta({ id: 'JournalEntry' })

export type JournalEntry = z.infer<typeof journalEntrySchema>
