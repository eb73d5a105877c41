import {
  CHANNELS,
  DIRECTIONS,
  MESSAGE_STATUSES,
  type CapturedMessage,
  type Channel,
  type Direction,
  type MessageStatus,
} from '../contract/captured-message.js'
import { CHANNEL_DESCRIPTORS, readingOf, searchTextOf, senderOf } from './channels/index.js'
import { describeTime, timeProblem } from './clock.js'

/** What the outbox can be narrowed to. Every field is optional; all given ones must match. */
export interface OutboxFilter {
  channel?: Channel
  /**
   * The recipient, exactly (case-insensitive). A leading space stands for `+`: in a URL query
   * `?to=+1415…` decodes to " 1415…", and it still matches the phone number.
   */
  to?: string
  status?: MessageStatus
  /** Unix milliseconds: only messages created at or after it. */
  since?: number
  account?: string
  /** Words that must all appear (any order, case-insensitive) in recipient, sender, subject, text, template and its parameters. */
  q?: string
  /** Case-insensitive substring of the sender (`Name <address>`, or an SMS sender id). */
  from?: string
  /** Case-insensitive substring of the email subject. */
  subject?: string
  /** The WhatsApp template name, exactly. */
  template?: string
  /** `outbound` (sent through the API) or `inbound` (a simulated reply). */
  direction?: Direction
}

/** The keys an {@link OutboxFilter} takes, in the order an error message lists them. */
export const FILTER_KEYS = [
  'channel',
  'to',
  'status',
  'since',
  'account',
  'q',
  'from',
  'subject',
  'template',
  'direction',
] as const satisfies ReadonlyArray<keyof OutboxFilter>

/** A filter compiled once: lower-cased needles, the `+` of a phone restored. */
export type MessagePredicate = (message: CapturedMessage) => boolean

/**
 * Checks a filter given in code (`waitFor`, `list`, matchers): an unknown key is a TypeError
 * naming it, so a typo (`{ chanel: 'sms' }`) fails at once instead of matching everything or
 * waiting forever.
 */
export function checkFilter(filter: object, where: string): asserts filter is OutboxFilter {
  for (const key of Object.keys(filter)) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(`${where}: unknown filter key "${key}". Filters take ${FILTER_KEYS.join(', ')}.`)
    }
  }
  const f = filter as OutboxFilter
  if (f.channel !== undefined && !CHANNELS.includes(f.channel))
    throw new TypeError(`${where}: channel must be one of ${CHANNELS.join(', ')} (got ${JSON.stringify(f.channel)}).`)
  if (f.direction !== undefined && !DIRECTIONS.includes(f.direction))
    throw new TypeError(
      `${where}: direction must be one of ${DIRECTIONS.join(', ')} (got ${JSON.stringify(f.direction)}).`,
    )
  if (f.status !== undefined && !MESSAGE_STATUSES.includes(f.status))
    throw new TypeError(
      `${where}: status must be one of ${MESSAGE_STATUSES.join(', ')} (got ${JSON.stringify(f.status)}).`,
    )
  const sinceProblem = f.since === undefined ? undefined : timeProblem(f.since)
  if (sinceProblem) throw new RangeError(`${where}: filter.since ${sinceProblem}.`)
}

/** A recipient as compared: trimmed of a URL-decoded `+` (a leading space), lower-cased. */
function recipientKey(to: string): string {
  return phonePlus(to.toLowerCase()).trim()
}

/** A leading space before a digit is the `+` of a phone number that a URL query decoded to a space. */
function phonePlus(text: string): string {
  return /^ [0-9]/.test(text) ? `+${text.slice(1)}` : text
}

export { matchesWords, searchWords } from '../contract/search.js'
import { matchesWords, searchWords } from '../contract/search.js'

/**
 * The words' verdicts on the last text searched: the waits of several filters sharing a word (and
 * each filter of a list) search a message's text for it once. A message's search text is one
 * string kept per message, so identity tells the same text.
 */
const MEMO_FROM_LENGTH = 4096
let lastText: string | undefined
const lastVerdicts = new Map<string, boolean>()
function matchesWordsOnce(text: string, words: readonly string[]): boolean {
  // A short text is searched faster than a verdict is remembered.
  if (text.length < MEMO_FROM_LENGTH) return matchesWords(text, words)
  if (text !== lastText) {
    lastText = text
    lastVerdicts.clear()
  }
  for (const word of words) {
    let found = lastVerdicts.get(word)
    if (found === undefined) {
      found = text.includes(word)
      if (lastVerdicts.size < 4_096) lastVerdicts.set(word, found)
    }
    if (!found) return false
  }
  return true
}

/** Compiles a filter into a predicate. */
export function compileFilter(filter: OutboxFilter): MessagePredicate {
  const to = filter.to === undefined ? undefined : recipientKey(filter.to)
  const words = filter.q === undefined ? undefined : searchWords(filter.q)
  // `?from=+1415…` decodes to " 1415…" as `to` does: the `+` of a phone number is restored.
  const from = filter.from === undefined ? undefined : phonePlus(filter.from.toLowerCase())
  const subject = filter.subject?.toLowerCase()
  const { channel, status, since, account, template, direction } = filter
  return (m) => {
    if (channel !== undefined && m.channel !== channel) return false
    if (direction !== undefined && m.direction !== direction) return false
    if (status !== undefined && m.status !== status) return false
    if (account !== undefined && m.account !== account) return false
    if (to !== undefined && m.to.toLowerCase() !== to) return false
    if (since !== undefined && Date.parse(m.created_at) < since) return false
    if (template !== undefined && readingOf(m).template(m as never) !== template) return false
    if (subject !== undefined && !(readingOf(m).subject(m as never) ?? '').toLowerCase().includes(subject)) return false
    if (from !== undefined && !(senderOf(m) ?? '').toLowerCase().includes(from)) return false
    if (words !== undefined && !matchesWordsOnce(searchTextOf(m), words)) return false
    return true
  }
}

/** Describes a filter for messages: `sms to +14155550123 with "code"`. */
export function describeFilter(filter: OutboxFilter): string {
  const parts: string[] = [filter.channel ? CHANNEL_DESCRIPTORS[filter.channel].label : 'message']
  if (filter.direction !== undefined) parts.unshift(filter.direction)
  if (filter.to !== undefined) parts.push(`to ${recipientKey(filter.to)}`)
  if (filter.from !== undefined) parts.push(`from "${filter.from}"`)
  if (filter.subject !== undefined) parts.push(`with subject containing "${filter.subject}"`)
  if (filter.template !== undefined) parts.push(`with template ${filter.template}`)
  if (filter.q !== undefined) parts.push(`matching "${filter.q}"`)
  if (filter.status !== undefined) parts.push(`in status ${filter.status}`)
  if (filter.account !== undefined) parts.push(`of account ${filter.account}`)
  if (filter.since !== undefined) parts.push(`since ${describeTime(filter.since)}`)
  return parts.join(' ')
}
