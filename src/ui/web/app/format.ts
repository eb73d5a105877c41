/** Small display helpers shared by the views. */
import type { CapturedMessage, MessageSummary } from './types.js'
import { matchesWords, searchWords } from '../../../contract/search.js'
import { searchTextOf, senderOf, summaryOf } from '../../../domain/channels/readings.js'

// How a message reads (its list line, sender, search text) is the server's own code: one
// reading per channel (src/domain/channels/*/reading.ts), bundled here.
export { senderOf, summaryOf }

const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium', hourCycle: 'h23' })

/** "14:03:12" today, "Nov 21 14:03" before. */
export function shortTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const today = new Date().toDateString() === date.toDateString()
  return today ? timeFormat.format(date) : `${dayFormat.format(date)} ${timeFormat.format(date)}`
}

export function fullTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : fullFormat.format(date)
}

/** Whether a summary passes the list's filters, as the server's outbox filter would. */
export function matchesFilters(message: MessageSummary, filters: URLSearchParams): boolean {
  const channel = filters.get('channel')
  if (channel && message.channel !== channel) return false
  const status = filters.get('status')
  if (status && message.status !== status) return false
  const account = filters.get('account')
  if (account && message.account !== account) return false
  const q = filters.get('q')
  // The server's rule (src/contract/search.ts): every word, in any order, over the same fields.
  if (q && !matchesWords(searchTextOf(message), searchWords(q))) return false
  return true
}

export function prettyJson(value: unknown): string {
  // Bidi controls, invisible fillers and C1 controls as \u escapes (the same JSON value): shown
  // raw, an override would reorder the rest of the line and a filler would hide.
  return JSON.stringify(value, null, 2).replace(
    INVISIBLE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
// eslint-disable-next-line no-control-regex
const INVISIBLE_IN_JSON =
  /[\u007f-\u009f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u3164\ufeff\uffa0]/g

/** The body of a journal entry, pretty-printed when it is JSON. */
export function prettyBody(body: string | null | undefined): string {
  if (!body) return ''
  try {
    return prettyJson(JSON.parse(body))
  } catch {
    return body
  }
}

export type StatusFields = Pick<CapturedMessage, 'status' | 'reason' | 'status_history'>

/**
 * `message` with the status fields of `step` when `step` is further along (a longer history):
 * status fields only, as the stream's copy may be a summary (no email HTML, no request).
 */
export function newerStatus<M extends StatusFields | undefined>(message: M, step: StatusFields | undefined): M {
  if (!step || (message && message.status_history.length >= step.status_history.length)) return message
  return (
    message
      ? { ...message, status: step.status, reason: step.reason, status_history: step.status_history }
      : { status: step.status, reason: step.reason, status_history: step.status_history }
  ) as M
}
