import type { CapturedMessage, Channel, MessageStatus } from '../domain/outbox.js'

/** Ink colour names the UI uses; kept in one place so every view agrees on what a colour means. */
export type Colour = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray' | 'white' | 'black'

/** Badge label and colours per channel: each channel its own colour, so a glance sorts the list. */
export const CHANNEL_BADGES: Record<Channel, { label: string; background: Colour; foreground: Colour }> = {
  email: { label: 'EMAIL', background: 'blue', foreground: 'white' },
  sms: { label: 'SMS', background: 'magenta', foreground: 'white' },
  whatsapp: { label: 'WHATSAPP', background: 'green', foreground: 'black' },
}

/** Status colours: progress is cool, success green, failure red, waiting yellow. */
export const STATUS_COLOURS: Record<MessageStatus, Colour> = {
  queued: 'yellow',
  sent: 'cyan',
  delivered: 'green',
  failed: 'red',
}

/** Green 2xx, yellow 4xx, red 5xx: the colours a QA person reads a journal by. */
export function httpStatusColour(status: number): Colour {
  if (status >= 500) return 'red'
  if (status >= 400) return 'yellow'
  if (status >= 200 && status < 300) return 'green'
  return 'gray'
}

/**
 * Client text is untrusted: a subject carrying `ESC[2J` or an OSC sequence must not drive the
 * terminal, and a newline must not break a row. Control characters become spaces.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n)
}

/** `HH:MM:SS` in local time: QA people compare it with their wall clock, not with UTC. */
export function clockTime(iso: string | number): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '--:--:--'
  return `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`
}

/** `1,000`: limits read better grouped, whatever the machine's locale. */
export function grouped(n: number): string {
  return n.toLocaleString('en-US')
}

/** What a row shows after the recipient: subject (email), first line of text (SMS), template (WhatsApp). */
export function messageSummary(message: CapturedMessage): string {
  if (message.channel === 'email') return printable(message.email.subject)
  if (message.channel === 'sms') {
    const firstLine = message.sms.text.split(/\r\n|\r|\n/, 1)[0] ?? ''
    return printable(firstLine)
  }
  if (message.channel === 'whatsapp') return printable(message.whatsapp.template)
  return ''
}

/**
 * Cuts text to `width` terminal cells with an ellipsis. Approximate cell widths (wide CJK and
 * emoji count 2) are enough for the short labels it cuts; Ink truncates rows exactly.
 */
export function ellipsize(text: string, width: number): string {
  if (width <= 0) return ''
  let used = 0
  let out = ''
  const chars = [...text]
  let total = 0
  for (const c of chars) total += cellWidth(c)
  if (total <= width) return text
  for (const c of chars) {
    const w = cellWidth(c)
    if (used + w > width - 1) break
    out += c
    used += w
  }
  return `${out}…`
}

function cellWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0
  if (code >= 0x1100 && (
    code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1f300 && code <= 0x1faff) || (code >= 0x20000 && code <= 0x3fffd)
  )) return 2
  return 1
}
