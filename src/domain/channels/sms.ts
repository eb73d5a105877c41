import type { SmsSendRequest } from '../../schemas/messages.js'
import { findCodes, linksInText, SHORT_SMS_LENGTH } from '../extract.js'
import { encodeSms } from '../sms-encoding.js'
import { base, inboundBase, outcomeFor, stringWeight } from './shared.js'
import type { ChannelDescriptor } from './types.js'

/** SMS: the text as sent, its encoding and segments; links and codes read from the text. */
export const smsChannel: ChannelDescriptor<'sms', SmsSendRequest> = {
  channel: 'sms',
  label: 'SMS',
  capture(sender, body, raw, retryAfter) {
    const outcome = outcomeFor(body.to, retryAfter)
    const message = {
      ...base(sender, 'sms', body.to, raw),
      text: body.message,
      links: linksInText(body.message),
      images: [],
      codes: findCodes(body.message, { onlyNumberCounts: [...body.message].length <= SHORT_SMS_LENGTH }),
      sms: { text: body.message, from: body.from ?? null, ...encodeSms(body.message) },
    }
    return { message, outcome }
  },
  receive(reply) {
    const message = {
      ...inboundBase(reply, 'sms'),
      text: reply.text,
      links: linksInText(reply.text),
      images: [],
      codes: findCodes(reply.text, { onlyNumberCounts: [...reply.text].length <= SHORT_SMS_LENGTH }),
      sms: { text: reply.text, from: reply.from, ...encodeSms(reply.text) },
    }
    return { message, outcome: { kind: 'delivered' } }
  },
  from: (m) => m.sms.from,
  subject: () => null,
  template: () => null,
  // Every line of a multi-line SMS, joined with ⏎, so none is hidden in a one-line list.
  summary: (m) => m.sms.text.split(/\r\n|\r|\n/).join(' ⏎ '),
  summaryPart: (m) => ({ sms: m.sms }),
  weight: (m) => stringWeight(m.sms.text) * 3,
}
