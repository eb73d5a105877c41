import { printable, wrapRows } from '../cells.js'
import { field, section } from '../fields.js'
import { seg, type StyledLine } from '../page.js'
import type { TerminalChannelView } from './types.js'

/** The template's parameters as a two-column table, each value wrapped in full. */
function parameterRows(parameters: Record<string, string>, width: number): StyledLine[] {
  const entries = Object.entries(parameters)
  const rows: StyledLine[] = [section(`Parameters (${entries.length})`, width)]
  if (entries.length === 0) return [...rows, [seg('(none)', { dim: true })]]
  const nameWidth = Math.min(24, Math.max(4, ...entries.map(([name]) => name.length)))
  rows.push([seg('NAME'.padEnd(nameWidth + 2), { bold: true }), seg('VALUE', { bold: true })])
  for (const [name, value] of entries) {
    wrapRows(value, Math.max(10, width - nameWidth - 2)).forEach((row, i) => {
      rows.push([seg((i === 0 ? printable(name) : '').padEnd(nameWidth + 2), { color: 'cyan' }), seg(row)])
    })
  }
  return rows
}

/** WhatsApp: a template send shows its template, language and parameters; a reply its sender. */
export const whatsappView: TerminalChannelView<'whatsapp'> = {
  badge: { label: 'WHATSAPP', short: 'WA', background: 'green', foreground: 'black' },
  header: (message, width) => {
    const wa = message.whatsapp
    return message.direction === 'inbound'
      ? [...field('From', wa.from ?? '(unknown)', width, { bold: true }), ...field('To', message.to, width)]
      : [
          ...field('To', message.to, width, { bold: true }),
          ...field('Template', wa.template, width, { bold: true }),
          ...field('Language', wa.language, width),
        ]
  },
  sections: (message, width) =>
    message.direction === 'outbound' ? parameterRows(message.whatsapp.parameters, width) : [],
  bodyTitle: (message, source) => {
    if (source) return 'Request as sent (v: text)'
    if (message.direction === 'inbound') return 'Text (v: request)'
    return message.whatsapp.rendered ? 'As the recipient reads it (v: request)' : 'Preview (v: request)'
  },
  source: (message) => JSON.stringify(message.request, null, 2),
}
