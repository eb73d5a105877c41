/** Small display helpers shared by the views. */
import type { CapturedMessage, MessageSummary } from './types.js'
import { matchesWords, searchWords } from '../../schemas/search.js'

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
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

/** The one line a row shows: subject, first SMS line (lines joined with ⏎), or the template. */
export function summaryLine(message: MessageSummary): string {
  return (message.direction === 'inbound' ? '↩ ' : '') + channelLine(message)
}

function channelLine(message: MessageSummary): string {
  switch (message.channel) {
    case 'email':
      return message.email.subject
    case 'sms':
      return message.sms.text.split(/\r\n|\r|\n/).filter(Boolean).join(' ⏎ ')
    case 'whatsapp':
      // A filled template reads as its body, as the recipient sees it.
      return message.whatsapp.rendered ? message.whatsapp.rendered.body.split(/\r\n|\r|\n/).filter(Boolean).join(' ⏎ ') : message.whatsapp.preview
  }
}

/** The sender as one string (`Name <address>`, SMS sender id), or ''. */
export function senderOf(message: MessageSummary | CapturedMessage): string {
  switch (message.channel) {
    case 'email': {
      const from = message.email.from
      return from ? (from.name ? `${from.name} <${from.email}>` : from.email) : ''
    }
    case 'sms':
      return message.sms.from ?? ''
    case 'whatsapp':
      return message.whatsapp.from ?? ''
  }
}

const SUMMARY_TEXT_LENGTH = 2_000
const SUMMARY_LINKS = 100
const SUMMARY_LINK_LENGTH = 2_048
const CUT_MARK = /^…\[\+[0-9]+ chars\]$/

/** As the server's list cuts a link (src/domain/channels/index.ts); a link an event already carries cut stays as it is. */
function summaryLink(url: string): string {
  if (url.length <= SUMMARY_LINK_LENGTH || CUT_MARK.test(url.slice(SUMMARY_LINK_LENGTH))) return url
  return `${url.slice(0, SUMMARY_LINK_LENGTH)}…[+${url.length - SUMMARY_LINK_LENGTH} chars]`
}

/** What `GET /__sandbox/messages` would list for a full message (events carry full messages). */
export function summarize(message: CapturedMessage): MessageSummary {
  const extras = {
    text: message.text.slice(0, SUMMARY_TEXT_LENGTH),
    text_truncated: message.text.length > SUMMARY_TEXT_LENGTH,
    links: message.links.slice(0, SUMMARY_LINKS).map(summaryLink),
    links_total: message.links.length,
    images: (message.images ?? []).slice(0, SUMMARY_LINKS).map(summaryLink),
  }
  switch (message.channel) {
    case 'email': {
      const { request: _request, email, ...rest } = message
      return { ...rest, ...extras, email: { from: email.from, subject: email.subject } }
    }
    case 'sms':
    case 'whatsapp': {
      const { request: _request, ...rest } = message
      return { ...rest, ...extras } as MessageSummary
    }
  }
}

/** What `q` searches, as the server's `searchTextOf`: recipient, sender, subject, text, template and its parameters. */
function searchTextOf(message: MessageSummary): string {
  const fields = [message.to, senderOf(message), message.text]
  if (message.channel === 'email') fields.push(message.email.subject)
  if (message.channel === 'whatsapp') fields.push(message.whatsapp.template, ...Object.values(message.whatsapp.parameters))
  return fields.join('\n').toLowerCase()
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
  // The server's rule (src/schemas/search.ts): every word, in any order, over the same fields.
  if (q && !matchesWords(searchTextOf(message), searchWords(q))) return false
  return true
}

export function prettyJson(value: unknown): string {
  // Bidi controls, invisible fillers and C1 controls as \u escapes (the same JSON value): shown
  // raw, an override would reorder the rest of the line and a filler would hide.
  return JSON.stringify(value, null, 2).replace(INVISIBLE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
// eslint-disable-next-line no-control-regex
const INVISIBLE_IN_JSON = /[\u007f-\u009f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u3164\ufeff\uffa0]/g

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
  return (message ? { ...message, status: step.status, reason: step.reason, status_history: step.status_history } : { status: step.status, reason: step.reason, status_history: step.status_history }) as M
}
