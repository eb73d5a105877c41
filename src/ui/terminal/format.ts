import type { MessageStatus } from '../../contract/captured-message.js'

/** Ink colour names the UI uses; kept in one place so every view agrees on what a colour means. */
export type Colour = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray' | 'white' | 'black'

/** Status colours: progress is cool, success green, failure red, waiting yellow. */
export const STATUS_COLOURS: Record<MessageStatus, Colour> = {
  queued: 'yellow',
  sent: 'cyan',
  delivered: 'green',
  failed: 'red',
}

/** Status labels for narrow terminals (at most 5 cells). */
export const SHORT_STATUS: Record<MessageStatus, string> = {
  queued: 'queue',
  sent: 'sent',
  delivered: 'deliv',
  failed: 'fail',
}

/** Green 2xx, yellow 4xx, red 5xx: the colours a QA person reads a journal by. */
export function httpStatusColour(status: number): Colour {
  if (status >= 500) return 'red'
  if (status >= 400) return 'yellow'
  if (status >= 200 && status < 300) return 'green'
  return 'gray'
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

/** True when both times fall on the same local day. */
export function sameDay(a: string | number, b: string | number): boolean {
  const x = new Date(a)
  const y = new Date(b)
  return x.getFullYear() === y.getFullYear() && x.getMonth() === y.getMonth() && x.getDate() === y.getDate()
}

/** Width of {@link listTime}'s answer: 8 for today's times, 11 with a date. */
export const TIME_WIDTH = { today: 8, dated: 11 } as const

/** A list's time: `HH:MM:SS` today, `MM-DD HH:MM` on another day (`now` is the sandbox clock). */
export function listTime(iso: string, now: number): string {
  if (sameDay(iso, now)) return clockTime(iso)
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '--:--:--'
  return `${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`
}

/** A detail's time: `HH:MM:SS`, with `YYYY-MM-DD` before it when not today. */
export function detailTime(iso: string, now: number): string {
  if (sameDay(iso, now)) return clockTime(iso)
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '--:--:--'
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${clockTime(iso)}`
}

/** `1,000`: limits read better grouped, whatever the machine's locale. */
export function grouped(n: number): string {
  return n.toLocaleString('en-US')
}

/** Durations read best with one decimal under 10 ms and none above. */
export function duration(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`
}

/** A clock offset as people say it: `+2h 5m`, `-30s`. */
export function offsetText(ms: number): string {
  const sign = ms < 0 ? '-' : '+'
  let s = Math.round(Math.abs(ms) / 1000)
  const d = Math.floor(s / 86_400)
  s -= d * 86_400
  const h = Math.floor(s / 3_600)
  s -= h * 3_600
  const m = Math.floor(s / 60)
  s -= m * 60
  const parts = [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : '', s || (!d && !h && !m) ? `${s}s` : ''].filter(
    Boolean,
  )
  return `${sign}${parts.slice(0, 2).join(' ')}`
}
