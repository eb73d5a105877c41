/**
 * The MCP tools' answers: compact plain text an agent reads in one go. Long bodies are cut with a
 * note saying where the rest is; no answer is over {@link MAX_ANSWER_BYTES}.
 */
import type { CapturedMessage, CapturedMessageSummary, ClockState, Fault, JournalEntry } from '../client/index.js'
import { byChannel } from '../contract/constants.js'

/** Longest answer of any tool or resource, in UTF-8 bytes. */
export const MAX_ANSWER_BYTES = 64 * 1024
/** Longest message text shown whole by get_message and wait_for_message. */
export const MAX_TEXT_CHARS = 8_000
/** Most links and codes listed. */
const MAX_ITEMS = 50

/** The text, cut to at most {@link MAX_ANSWER_BYTES} UTF-8 bytes with a note when it was longer. */
export function capped(text: string): string {
  const bytes = new TextEncoder().encode(text)
  if (bytes.length <= MAX_ANSWER_BYTES) return text
  const note = `\n[… cut: the answer was ${bytes.length} bytes; at most ${MAX_ANSWER_BYTES} are sent. Narrow the filter or lower limit.]`
  // Cut on a character boundary: decode a prefix and drop a torn last character.
  const kept = new TextDecoder().decode(bytes.slice(0, MAX_ANSWER_BYTES - note.length - 8)).replace(/\uFFFD$/, '')
  return `${kept}${note}`
}

function cut(text: string, max: number, where: string): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… ${text.length - max} more characters cut; ${where}]`
}

/** What a message is about: the subject, the SMS text or the WhatsApp template. */
function about(m: CapturedMessage | CapturedMessageSummary): string {
  return byChannel(m, {
    email: (e) => `"${e.email.subject}"`,
    sms: (s) => `"${s.text.length > 60 ? `${s.text.slice(0, 59)}…` : s.text}"`,
    whatsapp: (w) => `template ${w.whatsapp.template}`,
  })
}

/** One line of a message list. */
export function messageLine(m: CapturedMessage | CapturedMessageSummary): string {
  const codes = m.codes.length > 0 ? ` codes=${m.codes.slice(0, 5).join(',')}` : ''
  return `${m.message_id} ${m.channel} to=${m.to} ${m.status} ${m.created_at} ${about(m)}${codes}`
}

/** The list answer: a header line and one line per message. */
export function messageList(messages: readonly CapturedMessageSummary[], total: number): string {
  if (messages.length === 0) return 'No captured messages match.'
  const head = `${total} message${total === 1 ? '' : 's'} match${total === 1 ? 'es' : ''}${total > messages.length ? `; the newest ${messages.length} shown` : ''} (newest first):`
  return [head, ...messages.map(messageLine)].join('\n')
}

/** A whole message: header fields, status history, codes, links, then the text. */
export function messageDetail(m: CapturedMessage): string {
  const lines = [messageLine(m), `account=${m.account} key=${m.key}`]
  lines.push(...byChannel(m, {
    email: (e) => [`from: ${e.email.from ? `${e.email.from.name ? `${e.email.from.name} ` : ''}<${e.email.from.email}>` : '(default)'}`, `subject: ${e.email.subject}`],
    sms: (s) => [`from: ${s.sms.from ?? '(default)'}; ${s.sms.encoding}, ${s.sms.segments} segment${s.sms.segments === 1 ? '' : 's'}`],
    whatsapp: (w) => [`template: ${w.whatsapp.template} (${w.whatsapp.language})`],
  }))
  lines.push(`status history: ${m.status_history.map((s) => `${s.status} ${s.at}${s.reason ? ` (${s.reason})` : ''}`).join(' → ')}`)
  lines.push(`codes: ${m.codes.length > 0 ? m.codes.slice(0, MAX_ITEMS).join(', ') : '(none)'}`)
  const links = m.links.slice(0, MAX_ITEMS).map((l) => `  ${l}`)
  lines.push(`links (${m.links.length}):${links.length > 0 ? `\n${links.join('\n')}` : ' (none)'}${m.links.length > MAX_ITEMS ? `\n  [… ${m.links.length - MAX_ITEMS} more]` : ''}`)
  lines.push('text:', cut(m.text, MAX_TEXT_CHARS, `the whole message is the resource sendbox://messages/${m.message_id} and GET /__sandbox/messages/${m.message_id}`))
  return lines.join('\n')
}

/** The journal answer. */
export function requestList(entries: readonly JournalEntry[]): string {
  if (entries.length === 0) return 'The request journal is empty.'
  return [
    `${entries.length} request${entries.length === 1 ? '' : 's'} (newest first):`,
    ...entries.map((e) => `#${e.id} ${e.at} ${e.kind === 'webhook' ? 'webhook ' : ''}${e.method} ${e.path}${e.query ? `?${e.query}` : ''} → ${e.status} ${e.duration_ms.toFixed(1)}ms${e.error_code ? ` ${e.error_code}: ${cut(e.error_message ?? '', 200, 'see list_requests in the web inbox')}` : ''}${e.key ? ` key=${e.key}` : ''}`),
  ].join('\n')
}

/** One fault, as add_fault answers it. */
export function faultLine(f: Fault): string {
  const where = `${f.method ?? 'any method'} ${f.path ?? 'any path'}`
  const left = f.remaining === null ? 'until cleared' : `${f.remaining} answer${f.remaining === 1 ? '' : 's'} left`
  return `${f.id}: ${f.status}${f.code ? ` ${f.code}` : ''} on ${where}, ${left}${f.probability < 1 ? `, probability ${f.probability}` : ''}${f.delay_ms > 0 ? `, after ${f.delay_ms} ms` : ''}`
}

/** Sandbox time, as advance_clock answers it. */
export function clockLine(c: ClockState): string {
  return `Sandbox time is ${c.now} (${c.offset_ms >= 0 ? '+' : ''}${c.offset_ms} ms from the real clock${c.frozen ? ', frozen' : ''}).`
}
