import { z } from 'zod'
import { emailMessageSchema, smsMessageSchema, whatsappMessageSchema } from '../contract/captured-message.js'
import { webhookAttemptSchema, optOutSchema } from '../contract/conversations.js'
import { checkReportSchema } from '../contract/checks.js'
import { faultSchema } from '../contract/controls.js'
import { journalEntrySchema } from '../contract/journal.js'
import { subscriberSchema } from '../contract/subscriber.js'

/**
 * The rows of a store are checked as they are loaded (issue 36, R12): a row that does not parse,
 * or does not have its object's shape, is skipped and counted — never given to the sandbox, where
 * a crafted one killed the process from a lifecycle timer at every start. The shapes are the
 * contract's; a stored message has its derived fields `null` until read (docs/persistence.md).
 */

const derivedStored = {
  text: z.string().nullable(),
  links: z.array(z.string()).nullable(),
  images: z.array(z.string()).nullable(),
  codes: z.array(z.string()).nullable(),
  created_at: z.string().refine((at) => !Number.isNaN(Date.parse(at))),
}

const storedMessage = z.discriminatedUnion('channel', [
  emailMessageSchema.extend(derivedStored),
  smsMessageSchema.extend(derivedStored),
  whatsappMessageSchema.extend(derivedStored),
])

/** How a message still in its lifecycle ends (null: it has no lifecycle left). */
const storedOutcome = z
  .union([
    z.strictObject({ kind: z.literal('delivered') }),
    z.strictObject({ kind: z.literal('failed'), reason: z.string() }),
  ])
  .nullable()

/** A messages row as the loader reads it: `[outcome, message]`. */
export const messageRowSchema = z.tuple([storedOutcome, storedMessage])

/** The shape of each kept table's object. */
export const ROW_SCHEMAS = {
  subscribers: subscriberSchema,
  journal: journalEntrySchema,
  faults: faultSchema.extend({ account: z.string().nullable().optional() }),
  opt_outs: optOutSchema,
  webhook_attempts: webhookAttemptSchema,
  check_reports: checkReportSchema,
} as const

/** Rows skipped while loading, by table. */
export type Skipped = Partial<Record<keyof typeof ROW_SCHEMAS | 'messages', number>>

/**
 * Each JSON text (or value already parsed) checked by `schema`; what fails is counted in `skipped[table]` and
 * left out. The objects kept are the parsed ones as they were (the check strips nothing).
 */
export function validRows<T>(
  table: keyof Skipped,
  texts: readonly unknown[],
  schema: z.ZodType,
  skipped: Skipped,
): T[] {
  const kept: T[] = []
  for (const text of texts) {
    const value = parsed(text)
    if (value !== undefined && schema.safeParse(value).success) kept.push(value as T)
    else skipped[table] = (skipped[table] ?? 0) + 1
  }
  return kept
}

/** A JSON text parsed; an object or array already parsed (the loader's one-parse path) as it is. */
function parsed(text: unknown): unknown {
  if (typeof text === 'object' && text !== null) return text
  if (typeof text !== 'string') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The one start-up line naming what was skipped, or undefined when every row loaded. */
export function skippedLine(path: string, skipped: Skipped): string | undefined {
  const parts = Object.entries(skipped).filter(([, n]) => (n ?? 0) > 0)
  if (parts.length === 0) return undefined
  const total = parts.reduce((sum, [, n]) => sum + (n ?? 0), 0)
  return `sendbox: ${path}: skipped ${total} row${total === 1 ? '' : 's'} that do${total === 1 ? 'es' : ''} not parse (${parts.map(([table, n]) => `${table} ${n}`).join(', ')}); they stay in the file until overwritten`
}
