/**
 * What the web inbox reads from the /__sandbox API. The shapes come from the domain (type-only
 * imports: nothing of the domain's runtime reaches the bundle); the derived fields the contract
 * adds (`text`, `links`, `codes`, the summary's `text_truncated`) are optional here until every
 * server the page can meet sends them.
 */
import type { CapturedMessage as DomainMessage, Channel, MessageStatus, StatusChange } from '../../domain/outbox.js'
import type { JournalEntry as DomainJournalEntry } from '../../domain/journal.js'

export type { Channel, MessageStatus, StatusChange }

/** One captured message as `GET /__sandbox/messages/{id}` answers it. */
export type CapturedMessage = DomainMessage & {
  text?: string
  links?: string[]
  codes?: string[]
  /** Lets the preview iframe through when an admin token is required (never the admin token). */
  preview_token?: string
}

/** One row of `GET /__sandbox/messages`: no request body, no email HTML, text capped. */
export type MessageSummary = Omit<CapturedMessage, 'request' | 'email'> & {
  request?: Record<string, unknown>
  email?: Omit<NonNullable<DomainMessage['email']>, 'html'> & { html?: string }
  text_truncated?: boolean
}

/** One line of the request journal, with the fields the contract adds. */
export type JournalEntry = DomainJournalEntry & {
  query?: string | null
  error_message?: string | null
  request_body?: string | null
  response_body?: string | null
}

/** The pagination envelope of every /__sandbox listing. */
export interface Page<T> {
  data: T[]
  pagination: { page: number; limit: number; total: number; pages: number }
}

/** One key of `GET /__sandbox/keys`. */
export interface KeyUsage {
  key: string
  plan: string
  account?: string
  limit: number
  used: number
}

/** One event of `GET /__sandbox/events`. */
export type SandboxEvent =
  | { type: 'message.captured'; message: CapturedMessage }
  | { type: 'message.status'; message: CapturedMessage; change: StatusChange }
  | { type: 'request'; entry: JournalEntry }
  | { type: 'reset'; scope: string }

export const CHANNELS: readonly Channel[] = ['email', 'sms', 'whatsapp']
export const STATUSES: readonly MessageStatus[] = ['queued', 'sent', 'delivered', 'failed']
export const CHANNEL_LABELS: Record<Channel, string> = { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp' }
