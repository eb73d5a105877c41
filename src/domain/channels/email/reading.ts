import type { ChannelReading } from '../types.js'

/** An email reads as its subject; its sender is `Name <address>`. */
export const emailReading: ChannelReading<'email'> = {
  channel: 'email',
  address: 'email',
  label: 'Email',
  from: (m) =>
    m.email.from ? (m.email.from.name ? `${m.email.from.name} <${m.email.from.email}>` : m.email.from.email) : null,
  subject: (m) => m.email.subject,
  template: () => null,
  searchExtras: () => [],
  summary: (m) => m.email.subject,
  summaryPart: (m) => ({ email: { from: m.email.from, subject: m.email.subject } }),
}
