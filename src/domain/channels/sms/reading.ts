import type { ChannelReading } from '../types.js'

/** An SMS reads as its text, every line of it. */
export const smsReading: ChannelReading<'sms'> = {
  channel: 'sms',
  address: 'phone',
  label: 'SMS',
  from: (m) => m.sms.from,
  subject: () => null,
  template: () => null,
  searchExtras: () => [],
  // Every line of a multi-line SMS, joined with ⏎, so none is hidden in a one-line list.
  summary: (m) => m.sms.text.split(/\r\n|\r|\n/).join(' ⏎ '),
  summaryPart: (m) => ({ sms: m.sms }),
}
