import type { CapturedMessage } from '../domain/outbox.js'
import { PLAN_NAMES } from '../domain/plans.js'
import { emailBodyLines } from './email-body.js'
import { CHANNEL_BADGES, clockTime, ellipsize, printable, STATUS_COLOURS } from './format.js'
import { seg, type StyledLine } from './components/styled-lines.js'

const LABEL_WIDTH = 10

function field(label: string, value: string, style: Parameters<typeof seg>[1] = {}): StyledLine {
  return [seg(label.padEnd(LABEL_WIDTH), { dim: true }), seg(printable(value), style)]
}

function section(title: string, width: number): StyledLine {
  const head = `── ${title} `
  return [seg(head + '─'.repeat(Math.max(0, width - head.length)), { dim: true })]
}

/**
 * Word-wraps plain text (an SMS, a preview) to `width` cells: a body is read in full, so it wraps,
 * unlike list rows, which are cut. Words longer than a row are split.
 */
export function wrapText(text: string, width: number): string[] {
  const rows: string[] = []
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let row = ''
    for (const word of printable(paragraph).split(' ')) {
      let rest = word
      while ([...rest].length > width) {
        if (row !== '') {
          rows.push(row)
          row = ''
        }
        const chars = [...rest]
        rows.push(chars.slice(0, width).join(''))
        rest = chars.slice(width).join('')
      }
      if (row === '') row = rest
      else if ([...row].length + 1 + [...rest].length <= width) row += ` ${rest}`
      else {
        rows.push(row)
        row = rest
      }
    }
    rows.push(row)
  }
  return rows
}

function statusHistory(message: CapturedMessage): StyledLine[] {
  return message.status_history.map((change, i) => [
    seg((i === 0 ? 'Status' : '').padEnd(LABEL_WIDTH), { dim: true }),
    seg(change.status.padEnd(11), { color: STATUS_COLOURS[change.status], bold: i === message.status_history.length - 1 }),
    seg(clockTime(change.at)),
    ...(change.reason ? [seg(`  ${printable(change.reason)}`, { color: 'red' as const })] : []),
  ])
}

/**
 * Everything the detail view shows for one captured message, as screen rows: headers first,
 * then the body (email rendered from HTML, SMS text with its encoding, WhatsApp parameters).
 * `sandboxOrigin` builds the `/__sandbox/messages/{id}/html` link that opens the email in a browser.
 */
export function messageDetailLines(message: CapturedMessage, width: number, sandboxOrigin: string): StyledLine[] {
  const badge = CHANNEL_BADGES[message.channel]
  const lines: StyledLine[] = [
    [
      seg(` ${badge.label} `, { background: badge.background, color: badge.foreground, bold: true }),
      seg(` ${message.message_id}  `),
      seg(message.status, { color: STATUS_COLOURS[message.status], bold: true }),
    ],
  ]
  const sender = field('Key', `${message.key} · ${PLAN_NAMES[message.plan]} · account ${message.account}`)
  const body = Math.max(20, width - 2)

  if (message.channel === 'email') {
    const { from, subject, html } = message.email
    const htmlUrl = `${sandboxOrigin}/__sandbox/messages/${encodeURIComponent(message.message_id)}/html`
    lines.push(
      field('From', from ? (from.name ? `${from.name} <${from.email}>` : from.email) : '(not given)'),
      field('To', message.to, { bold: true }),
      field('Subject', subject, { bold: true }),
      sender,
      ...statusHistory(message),
      [seg('Open the HTML in a browser:', { dim: true })],
      [seg(htmlUrl, { color: 'cyan', link: htmlUrl })],
      section('Body', width),
      ...emailBodyLines(message.message_id, html, body).map((text): StyledLine => [seg(text)]),
    )
  } else if (message.channel === 'sms') {
    const sms = message.sms
    const units = sms.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'
    lines.push(
      field('From', sms.from ?? '(not given)'),
      field('To', message.to, { bold: true }),
      field('Length', `${sms.characters} characters (${sms.units} ${units})`),
      field('Encoding', sms.encoding),
      field('Segments', String(sms.segments), sms.segments > 1 ? { color: 'yellow', bold: true } : {}),
      sender,
      ...statusHistory(message),
      section('Text', width),
      ...wrapText(sms.text, body).map((text): StyledLine => [seg(text)]),
    )
  } else if (message.channel === 'whatsapp') {
    const wa = message.whatsapp
    const entries: Array<[string, string]> = Object.entries(wa.parameters)
    const nameWidth = Math.min(24, Math.max(4, ...entries.map(([name]) => [...name].length)))
    lines.push(
      field('To', message.to, { bold: true }),
      field('Template', wa.template, { bold: true }),
      field('Language', wa.language),
      sender,
      ...statusHistory(message),
      section(`Parameters (${entries.length})`, width),
      ...(entries.length === 0
        ? [[seg('(none)', { dim: true })]]
        : [
            [seg('NAME'.padEnd(nameWidth + 2), { bold: true }), seg('VALUE', { bold: true })],
            ...entries.map(([name, value]): StyledLine => [
              seg(ellipsize(printable(name), nameWidth).padEnd(nameWidth + 2), { color: 'cyan' }),
              seg(printable(value)),
            ]),
          ]),
      section('Preview', width),
      ...wrapText(wa.preview, body).map((text): StyledLine => [seg(text)]),
    )
  }
  return lines
}
