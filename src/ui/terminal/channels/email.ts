import { emailReading } from '../../../domain/channels/email/reading.js'
import { field } from '../fields.js'
import type { TerminalChannelView } from './types.js'

/** Email: sender, recipient and subject; `v` shows the HTML source. */
export const emailView: TerminalChannelView<'email'> = {
  badge: { label: 'EMAIL', short: 'EM', background: 'blue', foreground: 'white' },
  header: (message, width) => [
    ...field('From', emailReading.from(message) ?? '(not given)', width),
    ...field('To', message.to, width, { bold: true }),
    ...field('Subject', message.email.subject, width, { bold: true }),
  ],
  bodyTitle: (_message, source) => (source ? 'HTML source (v: text)' : 'Text (v: HTML source)'),
  source: (message) => message.email.html,
  htmlPreview: true,
}
