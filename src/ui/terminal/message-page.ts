import { PLAN_NAMES } from '../../domain/plans.js'
import type { CapturedMessage } from '../../contract/captured-message.js'
import { JOURNAL_BODY_LIMIT, type JournalEntry } from '../../contract/journal.js'
import type { WebhookAttempt } from '../../domain/webhook-attempts.js'
import { printable } from './cells.js'
import { CHANNEL_BADGES, viewOf } from './channels/index.js'
import { field, LABEL_WIDTH, section } from './fields.js'
import { detailTime, duration, grouped, httpStatusColour, STATUS_COLOURS } from './format.js'
import { accountText, keywordLabel } from './qa-view.js'
import { RowSource, seg, type Block, type Segment, type StyledLine } from './page.js'

/** The browser URL of an email's HTML: carries the message's preview token, so it opens even when /__sandbox needs the admin token. */
export function previewUrl(origin: string, id: string, token: string | undefined): string {
  const base = `${origin}/__sandbox/messages/${encodeURIComponent(id)}/html`
  return token ? `${base}?token=${encodeURIComponent(token)}` : base
}

/** The message's lifecycle, a row per status change: status, when, and the reason of a failure. */
function lifecycleRows(message: CapturedMessage, now: number): StyledLine[] {
  return message.status_history.map((change, i) => [
    seg((i === 0 ? 'Status' : '').padEnd(LABEL_WIDTH), { dim: true }),
    seg(change.status.padEnd(11), {
      color: STATUS_COLOURS[change.status],
      bold: i === message.status_history.length - 1,
    }),
    seg(detailTime(change.at, now)),
    ...(change.reason ? [seg(`  ${printable(change.reason)}`, { color: 'red' as const })] : []),
  ])
}

/** The codes found in a message as highlighted chips on one row, and the key that copies the first. */
function codeChips(codes: readonly string[]): StyledLine {
  const chips: Segment[] = [seg('Codes'.padEnd(LABEL_WIDTH), { dim: true })]
  codes.forEach((code, i) => {
    if (i > 0) chips.push(seg('  '))
    chips.push(seg(` ${printable(code)} `, { color: 'black', background: 'yellow', bold: true }))
  })
  chips.push(seg('  y copies the first', { dim: true }))
  return chips
}

/**
 * The top of a message's page: channel, id, status, the headers and lifecycle, the codes
 * (highlighted) and the preview URL. Built on each render (it follows the message live); every
 * value is short and wrapped in full.
 */
export function messageHeaderRows(
  message: CapturedMessage,
  width: number,
  now: number,
  preview: string | null,
  source: boolean,
  request?: JournalEntry,
): StyledLine[] {
  const badge = CHANNEL_BADGES[message.channel]
  const rows: StyledLine[] = [
    [
      seg(` ${badge.label} `, { background: badge.background, color: badge.foreground, bold: true }),
      seg(` ${message.message_id}  `),
      seg(message.status, { color: STATUS_COLOURS[message.status], bold: true }),
    ],
  ]
  const add = (...more: StyledLine[]) => rows.push(...more)
  const view = viewOf(message)
  add(...view.header(message as never, width))
  if (message.direction === 'inbound')
    add(...field('Direction', 'inbound: a reply to this account (POST /__sandbox/inbound)', width, { color: 'cyan' }))
  const keyword = keywordLabel(message)
  if (keyword)
    add(
      ...field(
        'Keyword',
        `${keyword}: ${keyword.includes('opt-out') ? 'the number is opted out of this account (O lists opt-outs)' : 'the number is opted back in'}`,
        width,
        { color: 'red', bold: true },
      ),
    )
  if (request)
    add(
      ...field(
        'Request',
        `request #${request.id} ${request.method} ${request.path} ${request.status} (Tab selects it)`,
        width,
      ),
    )
  add(...field('Key', `${message.key} · ${PLAN_NAMES[message.plan]} · account ${message.account}`, width))
  if (viewOf(message).htmlPreview !== true)
    add(...field('Reply', 'R simulates a reply from this number (STOP, START or any text)', width, { dim: true }))
  add(...lifecycleRows(message, now))
  if (message.codes.length > 0) add(codeChips(message.codes))
  if (preview) add(...field('Preview', preview, width, { color: 'cyan' }, preview))
  if (!source && view.sections) add(...view.sections(message as never, width))
  const title = view.bodyTitle(message as never, source)
  add(section(title, width))
  return rows
}

/**
 * The long part of a message's page, wrapped a slice at a time: the text (or the source with
 * `v`), codes highlighted wherever they appear, then every link numbered and in full.
 */
export function messageBodySource(message: CapturedMessage, width: number, source: boolean): RowSource {
  const body = source ? viewOf(message).source(message as never) : message.text
  const blocks: Block[] = [
    { kind: 'text', text: body.length === 0 ? '(empty)' : body, highlight: source ? [] : message.codes },
  ]
  if (message.links.length > 0) {
    blocks.push(
      {
        kind: 'rows',
        rows: [[seg(' ')], section(`Links (${grouped(message.links.length)})  1–9 open · Y then 1–9 copies`, width)],
      },
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
    ...field(
      'Replay',
      `POST /__sandbox/webhooks/${attempt.id}/replay (or Replay on the web inbox's Webhooks page)`,
      width,
      { dim: true },
    ),
    section('Request headers', width),
  ]
}

/** Headers as the page shows them, a `name: value` line each. */
function headersText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
}

/** The top of a request's page, a field a line: method, path, status, time, error, fault, who, the message it made. */
function requestHeadRows(
  entry: JournalEntry,
  width: number,
  now: number,
  labels: ReadonlyMap<string, string>,
): StyledLine[] {
  return [
    [
      seg(` ${entry.kind === 'webhook' ? 'WEBHOOK' : 'REQUEST'} `, { inverse: true, bold: true }),
      seg(` #${entry.id}  `),
      seg(String(entry.status || '---'), { color: httpStatusColour(entry.status), bold: true }),
    ],
    ...field('Method', entry.method, width, { bold: true }),
    ...field('Path', entry.path, width, { bold: true }),
    ...(entry.query ? field('Query', entry.query, width) : []),
    ...field('Status', String(entry.status || 'no answer'), width, {
      color: httpStatusColour(entry.status),
      bold: true,
    }),
    ...field('Duration', duration(entry.duration_ms), width),
    ...field('Time', detailTime(entry.at, now), width),
    ...(entry.error_code
      ? field('Error', entry.error_code, width, { color: httpStatusColour(entry.status), bold: true })
      : []),
    ...(entry.error_message ? field('Message', entry.error_message, width) : []),
    ...(entry.fault_id
      ? field('Fault', `${entry.fault_id}: an injected fault answered (GET /__sandbox/faults)`, width, {
          color: 'red',
          bold: true,
        })
      : []),
    ...field('Account', accountText(entry.account, labels), width),
    ...field('Key', entry.key ?? '(none sent)', width),
    ...(entry.message_id ? field('Message', `${entry.message_id} (Tab opens it)`, width, { color: 'cyan' }) : []),
  ]
}

/** Everything the journal kept about one request: line, status, error, who, and the bodies; a webhook's attempt from the inspector. */
export function requestPage(
  entry: JournalEntry,
  width: number,
  now: number,
  attempt?: WebhookAttempt,
  labels: ReadonlyMap<string, string> = new Map(),
): RowSource {
  const head = requestHeadRows(entry, width, now, labels)
  const blocks: Block[] = [{ kind: 'rows', rows: attempt ? [...head, ...attemptRows(attempt, width)] : head }]
  if (attempt) blocks.push({ kind: 'text', text: headersText(attempt.request.headers) })
  if (entry.request_headers) {
    blocks.push(
      { kind: 'rows', rows: [section('Request headers', width)] },
      { kind: 'text', text: headersText(entry.request_headers) },
    )
  }
  blocks.push({ kind: 'rows', rows: [section('Request body', width)] })
  blocks.push(
    entry.request_body
      ? { kind: 'text', text: prettyBody(entry.request_body) }
      : { kind: 'rows', rows: [[seg('(none)', { dim: true })]] },
  )
  if (entry.response_body) {
    blocks.push(
      { kind: 'rows', rows: [section('Answer body', width)] },
      { kind: 'text', text: prettyBody(entry.response_body) },
    )
  }
  return new RowSource(blocks, width)
}
