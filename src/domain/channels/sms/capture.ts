import type { SmsSendRequest } from '../../../contract/messages.js'
import { findCodes, SHORT_SMS_LENGTH } from '../../extract.js'
import { encodeSms } from '../../sms-encoding.js'
import { base, fromText, inboundBase, outcomeFor, stringWeight } from '../shared.js'
import { smsReading } from './reading.js'
import type { ChannelDescriptor } from '../types.js'

/** An SMS's text, links, codes (a short one may be a bare number) and its encoding part. */
function smsParts(text: string, from: string | null) {
  return {
    ...fromText(text, findCodes(text, { onlyNumberCounts: [...text].length <= SHORT_SMS_LENGTH })),
    sms: { text, from, ...encodeSms(text) },
  }
}

/** SMS: the text as sent, its encoding and segments; links and codes read from the text. */
export const smsChannel: ChannelDescriptor<'sms', SmsSendRequest> = {
  ...smsReading,
  capture(sender, body, raw, retryAfter) {
    const outcome = outcomeFor(body.to, retryAfter)
    const message = { ...base(sender, 'sms', body.to, raw), ...smsParts(body.message, body.from ?? null) }
    return { message, outcome }
  },
  receive(reply) {
    const message = { ...inboundBase(reply, 'sms'), ...smsParts(reply.text, reply.from) }
    return { message, outcome: { kind: 'delivered' } }
  },
  weight: (m) => stringWeight(m.sms.text) * 3,
}
