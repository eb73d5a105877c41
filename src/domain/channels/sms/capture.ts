import type { SmsSendRequest } from '../../../contract/messages.js'
import { findCodes, linksInText, SHORT_SMS_LENGTH } from '../../extract.js'
import { encodeSms } from '../../sms-encoding.js'
import { base, inboundBase, outcomeFor, stringWeight } from '../shared.js'
import { smsReading } from './reading.js'
import type { ChannelDescriptor } from '../types.js'

/** SMS: the text as sent, its encoding and segments; links and codes read from the text. */
export const smsChannel: ChannelDescriptor<'sms', SmsSendRequest> = {
  ...smsReading,
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
  weight: (m) => stringWeight(m.sms.text) * 3,
}
