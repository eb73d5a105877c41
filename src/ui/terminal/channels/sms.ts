import { field } from '../fields.js'
import type { TerminalChannelView } from './types.js'

/** SMS: sender, recipient, length, encoding and segments (more than one stands out). */
export const smsView: TerminalChannelView<'sms'> = {
  badge: { label: 'SMS', short: 'SM', background: 'magenta', foreground: 'white' },
  header: (message, width) => {
    const sms = message.sms
    const units = sms.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'
    return [
      ...field('From', sms.from ?? '(not given)', width),
      ...field('To', message.to, width, { bold: true }),
      ...field('Length', `${sms.characters} characters (${sms.units} ${units})`, width),
      ...field('Encoding', sms.encoding, width),
      ...field('Segments', String(sms.segments), width, sms.segments > 1 ? { color: 'yellow', bold: true } : {}),
    ]
  },
  bodyTitle: (_message, source) => (source ? 'Request as sent (v: text)' : 'Text (v: request)'),
  source: (message) => JSON.stringify(message.request, null, 2),
}
