import { PLAN_NAMES } from '../domain/plans.js'
import type { CapturedMessage } from '../schemas/captured-message.js'
import { byChannel } from '../schemas/constants.js'
import { JOURNAL_BODY_LIMIT, type JournalEntry } from '../schemas/journal.js'
import type { WebhookAttempt } from '../domain/webhook-attempts.js'
import { printable, wrapRows } from './cells.js'
import { CHANNEL_BADGES, detailTime, duration, grouped, httpStatusColour, STATUS_COLOURS } from './format.js'
import { RowSource, seg, type Block, type Segment, type StyledLine } from './page.js'

const LABEL_WIDTH = 10
type Style = Omit<Segment, 'text'>

/** A labelled value, wrapped under itself in full (a detail never cuts a value). */
function field(label: string, value: string, width: number, style: Style = {}, link?: string): StyledLine[] {
  const rows = wrapRows(value, Math.max(10, width - LABEL_WIDTH))
  return rows.map((row, i) => [seg((i === 0 ? label : '').padEnd(LABEL_WIDTH), { dim: true }), seg(row, { ...style, link })])
}

/** A section rule: `── Links (3) ─────`. */
export function section(title: string, width: number): StyledLine {
  const head = `── ${title} `
  return [seg(head + '─'.repeat(Math.max(0, width - head.length)), { dim: true })]
}

/** The browser URL of an email's HTML: carries the message's preview token, so it opens even when /__sandbox needs the admin token. */
export function previewUrl(origin: string, id: string, token: string | undefined): string {
  const base = `${origin}/__sandbox/messages/${encodeURIComponent(id)}/html`
  return token ? `${base}?token=${encodeURIComponent(token)}` : base
}

/**
 * The top of a message's page: channel, id, status, the headers and lifecycle, the codes
 * (highlighted) and the preview URL. Built on each render (it follows the message live); every
 * value is short and wrapped in full.
 */
export function messageHeaderRows(message: CapturedMessage, width: number, now: number, preview: string | null, source: boolean, request?: JournalEntry): StyledLine[] {
  const badge = CHANNEL_BADGES[message.channel]
  const rows: StyledLine[] = [[
    seg(` ${badge.label} `, { background: badge.background, color: badge.foreground, bold: true }),
    seg(` ${message.message_id}  `),
    seg(message.status, { color: STATUS_COLOURS[message.status], bold: true }),
  ]]
  const add = (...more: StyledLine[]) => rows.push(...more)
  switch (message.channel) {
    case 'email': {
      const { from, subject } = message.email
      add(
        ...field('From', from ? (from.name ? `${from.name} <${from.email}>` : from.email) : '(not given)', width),
        ...field('To', message.to, width, { bold: true }),
        ...field('Subject', subject, width, { bold: true }),
      )
      break
    }
    case 'sms': {
      const sms = message.sms
      const units = sms.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'
      add(
        ...field('From', sms.from ?? '(not given)', width),
        ...field('To', message.to, width, { bold: true }),
        ...field('Length', `${sms.characters} characters (${sms.units} ${units})`, width),
        ...field('Encoding', sms.encoding, width),
        ...field('Segments', String(sms.segments), width, sms.segments > 1 ? { color: 'yellow', bold: true } : {}),
      )
      break
    }
    case 'whatsapp': {
      const wa = message.whatsapp
      if (message.direction === 'inbound') add(...field('From', wa.from ?? '(unknown)', width, { bold: true }), ...field('To', message.to, width))
      else add(...field('To', message.to, width, { bold: true }), ...field('Template', wa.template, width, { bold: true }), ...field('Language', wa.language, width))
      break
    }
  }
  if (message.direction === 'inbound') add(...field('Direction', 'inbound: a reply to this account (POST /__sandbox/inbound)', width, { color: 'cyan' }))
  if (request) add(...field('Request', `#${request.id} ${request.method} ${request.path} ${request.status} (Tab: Requests)`, width))
  add(...field('Key', `${message.key} · ${PLAN_NAMES[message.plan]} · account ${message.account}`, width))
  message.status_history.forEach((change, i) => {
    add([
      seg((i === 0 ? 'Status' : '').padEnd(LABEL_WIDTH), { dim: true }),
      seg(change.status.padEnd(11), { color: STATUS_COLOURS[change.status], bold: i === message.status_history.length - 1 }),
      seg(detailTime(change.at, now)),
      ...(change.reason ? [seg(`  ${printable(change.reason)}`, { color: 'red' as const })] : []),
    ])
  })
  if (message.codes.length > 0) {
    const chips: Segment[] = [seg('Codes'.padEnd(LABEL_WIDTH), { dim: true })]
    message.codes.forEach((code, i) => {
      if (i > 0) chips.push(seg('  '))
      chips.push(seg(` ${printable(code)} `, { color: 'black', background: 'yellow', bold: true }))
    })
    chips.push(seg('  y copies the first', { dim: true }))
    add(chips)
  }
  if (preview) add(...field('Preview', preview, width, { color: 'cyan' }, preview))
  if (message.channel === 'whatsapp' && !source && message.direction === 'outbound') {
    const entries: Array<[string, string]> = Object.entries(message.whatsapp.parameters)
    add(section(`Parameters (${entries.length})`, width))
    if (entries.length === 0) add([seg('(none)', { dim: true })])
    else {
      const nameWidth = Math.min(24, Math.max(4, ...entries.map(([name]) => name.length)))
      add([seg('NAME'.padEnd(nameWidth + 2), { bold: true }), seg('VALUE', { bold: true })])
      for (const [name, value] of entries) {
        wrapRows(value, Math.max(10, width - nameWidth - 2)).forEach((row, i) => {
          add([seg((i === 0 ? printable(name) : '').padEnd(nameWidth + 2), { color: 'cyan' }), seg(row)])
        })
      }
    }
  }
  const title = source
    ? byChannel(message, { email: () => 'HTML source (v: text)', sms: () => 'Request as sent (v: text)', whatsapp: () => 'Request as sent (v: text)' })
    : byChannel(message, {
      email: () => 'Text (v: HTML source)',
      sms: () => 'Text (v: request)',
      whatsapp: (w) => (w.direction === 'inbound' ? 'Text (v: request)' : w.whatsapp.rendered ? 'As the recipient reads it (v: request)' : 'Preview (v: request)'),
    })
  add(section(title, width))
  return rows
}

/**
 * The long part of a message's page, wrapped a slice at a time: the text (or the source with
 * `v`), codes highlighted wherever they appear, then every link numbered and in full.
 */
export function messageBodySource(message: CapturedMessage, width: number, source: boolean): RowSource {
  const body = source
    ? byChannel(message, { email: (e) => e.email.html, sms: (s) => JSON.stringify(s.request, null, 2), whatsapp: (w) => JSON.stringify(w.request, null, 2) })
    : message.text
  const blocks: Block[] = [{ kind: 'text', text: body.length === 0 ? '(empty)' : body, highlight: source ? [] : message.codes }]
  if (message.links.length > 0) {
    blocks.push(
      { kind: 'rows', rows: [[seg(' ')], section(`Links (${grouped(message.links.length)})  1–9 open · Y then 1–9 copies`, width)] },
      { kind: 'links', links: message.links, anchor: 'links' },
    )
  }
  return new RowSource(blocks, width)
}

/** A journal body as readable rows' text: pretty JSON when it parses, else as kept. */
function prettyBody(body: string): string {
  const cut = body.length >= JOURNAL_BODY_LIMIT
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return cut ? `${body}\n(cut: the journal keeps the first ${grouped(JOURNAL_BODY_LIMIT)} characters)` : body
  }
}

/** A webhook attempt's inspector lines: webhook-id, trigger, next retry, the signed headers. */
function attemptRows(attempt: WebhookAttempt, width: number): StyledLine[] {
  return [
    ...field('Event', `${attempt.event} · attempt ${attempt.attempt} (${attempt.trigger})`, width, { bold: true }),
    ...field('Webhook', attempt.webhook_id, width),
    ...field('Retry', attempt.next_retry_at ?? '—', width),
    ...field('Replay', `POST /__sandbox/webhooks/${attempt.id}/replay (or Replay on the web inbox's Webhooks page)`, width, { dim: true }),
    section('Request headers', width),
  ]
}

/** Everything the journal kept about one request: line, status, error, who, and the bodies; a webhook's attempt from the inspector. */
export function requestPage(entry: JournalEntry, width: number, now: number, attempt?: WebhookAttempt): RowSource {
  const head: StyledLine[] = [
    [seg(` ${entry.kind === 'webhook' ? 'WEBHOOK' : 'REQUEST'} `, { inverse: true, bold: true }), seg(` #${entry.id}  `), seg(String(entry.status || '---'), { color: httpStatusColour(entry.status), bold: true })],
    ...field('Method', entry.method, width, { bold: true }),
    ...field('Path', entry.path, width, { bold: true }),
    ...(entry.query ? field('Query', entry.query, width) : []),
    ...field('Status', String(entry.status || 'no answer'), width, { color: httpStatusColour(entry.status), bold: true }),
    ...field('Duration', duration(entry.duration_ms), width),
    ...field('Time', detailTime(entry.at, now), width),
    ...(entry.error_code ? field('Error', entry.error_code, width, { color: httpStatusColour(entry.status), bold: true }) : []),
    ...(entry.error_message ? field('Message', entry.error_message, width) : []),
    ...field('Account', entry.account ?? '—', width),
    ...field('Key', entry.key ?? '(none sent)', width),
    ...(entry.message_id ? field('Message', `${entry.message_id} (captured)`, width, { color: 'cyan' }) : []),
  ]
  const blocks: Block[] = [{ kind: 'rows', rows: attempt ? [...head, ...attemptRows(attempt, width)] : head }]
  if (attempt) blocks.push({ kind: 'text', text: Object.entries(attempt.request.headers).map(([name, value]) => `${name}: ${value}`).join('\n') })
  if (entry.request_headers) {
    blocks.push({ kind: 'rows', rows: [section('Request headers', width)] }, { kind: 'text', text: Object.entries(entry.request_headers).map(([name, value]) => `${name}: ${value}`).join('\n') })
  }
  blocks.push({ kind: 'rows', rows: [section('Request body', width)] })
  blocks.push(entry.request_body ? { kind: 'text', text: prettyBody(entry.request_body) } : { kind: 'rows', rows: [[seg('(none)', { dim: true })]] })
  if (entry.response_body) {
    blocks.push({ kind: 'rows', rows: [section('Answer body', width)] }, { kind: 'text', text: prettyBody(entry.response_body) })
  }
  return new RowSource(blocks, width)
}
