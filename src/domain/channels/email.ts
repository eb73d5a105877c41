import type { EmailSendRequest } from '../../schemas/messages.js'
import { findCodes, renderEmail } from '../extract.js'
import { base, outcomeFor, stringWeight } from './shared.js'
import type { ChannelDescriptor } from './types.js'

/** Email: from, subject and HTML; text is the HTML rendered, links its hrefs and image sources. */
export const emailChannel: ChannelDescriptor<'email', EmailSendRequest> = {
  channel: 'email',
  label: 'Email',
  capture(sender, body, raw, retryAfter) {
    const outcome = outcomeFor(body.to, retryAfter)
    const { text, links } = renderEmail(body.html)
    return {
      ...base(sender, 'email', body.to, raw),
      text,
      links,
      codes: findCodes(`${body.subject}\n${text}`),
      outcome,
      email: {
        from: body.from ? { email: body.from.email, name: body.from.name ?? null } : null,
        subject: body.subject,
        html: body.html,
      },
    }
  },
  from: (m) => (m.email.from ? (m.email.from.name ? `${m.email.from.name} <${m.email.from.email}>` : m.email.from.email) : null),
  subject: (m) => m.email.subject,
  template: () => null,
  summary: (m) => m.email.subject,
  summaryPart: (m) => ({ email: { from: m.email.from, subject: m.email.subject } }),
  weight: (m) => stringWeight(m.email.html) + stringWeight(m.text) + stringWeight(m.email.subject) + m.links.reduce((n, l) => n + l.length * 2, 0),
}
