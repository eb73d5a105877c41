import type { ChannelReading } from '../types.js'

/** A WhatsApp message reads as the recipient sees it: the filled template, else its one-line preview. */
export const whatsappReading: ChannelReading<'whatsapp'> = {
  channel: 'whatsapp',
  address: 'phone',
  label: 'WhatsApp',
  from: (m) => m.whatsapp.from ?? null,
  subject: () => null,
  template: (m) => m.whatsapp.template || null,
  searchExtras: (m) => Object.values(m.whatsapp.parameters),
  // A filled template reads as its body; otherwise the one-line preview.
  summary: (m) => (m.whatsapp.rendered ? m.whatsapp.rendered.body.split(/\r\n|\r|\n/).join(' ⏎ ') : m.whatsapp.preview),
  summaryPart: (m) => ({ whatsapp: m.whatsapp }),
}
