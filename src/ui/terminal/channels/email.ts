import { field } from '../fields.js'
import type { TerminalChannelView } from './types.js'

/** Email: sender, recipient and subject; `v` shows the HTML source. */
export const emailView: TerminalChannelView<'email'> = {
  badge: { label: 'EMAIL', short: 'EM', background: 'blue', foreground: 'white' },
  header: (message, width) => {
    const { from, subject } = message.email
    return [
      ...field('From', from ? (from.name ? `${from.name} <${from.email}>` : from.email) : '(not given)', width),
      ...field('To', message.to, width, { bold: true }),
      ...field('Subject', subject, width, { bold: true }),
    ]
  },
  bodyTitle: (_message, source) => (source ? 'HTML source (v: text)' : 'Text (v: HTML source)'),
  source: (message) => message.email.html,
  htmlPreview: true,
}
