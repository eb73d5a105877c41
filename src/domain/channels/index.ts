import { SUMMARY_LINK_LENGTH, SUMMARY_LINKS, SUMMARY_TEXT_LENGTH, type CapturedMessage, type CapturedMessageSummary, type Channel, type MessageOf } from '../../schemas/captured-message.js'
import { emailChannel, reviveEmail } from './email.js'
import { storedJson } from './derived.js'
import { smsChannel } from './sms.js'
import type { ChannelDescriptor } from './types.js'
import { whatsappChannel } from './whatsapp.js'

/** One descriptor per channel. A channel missing here is a compile error. */
export const CHANNEL_DESCRIPTORS: { [C in Channel]: ChannelDescriptor<C, never> } = {
  email: emailChannel as ChannelDescriptor<'email', never>,
  sms: smsChannel as ChannelDescriptor<'sms', never>,
  whatsapp: whatsappChannel as ChannelDescriptor<'whatsapp', never>,
}

/** The descriptor of a message's channel. */
export function descriptorOf<C extends Channel>(message: MessageOf<C>): ChannelDescriptor<C, never> {
  return CHANNEL_DESCRIPTORS[message.channel as C] as unknown as ChannelDescriptor<C, never>
}

/** One line for a list: subject, SMS lines joined with ⏎, or template with parameters. */
export function summaryOf(message: CapturedMessage): string {
  const line = descriptorOf(message).summary(message as never)
  // A reply reads as one in every list: `↩ STOP`.
  return message.direction === 'inbound' ? `↩ ${line}` : line
}

/** The sender as shown and filtered (`Name <address>`, SMS sender id), or null. */
export function senderOf(message: CapturedMessage): string | null {
  return descriptorOf(message).from(message as never)
}

/**
 * Everything `q` searches, lower-cased once per message and kept: recipient, sender, subject,
 * text, template and its parameters.
 */
const searchTexts = new WeakMap<CapturedMessage, string>()
export function searchTextOf(message: CapturedMessage): string {
  let text = searchTexts.get(message)
  if (text === undefined) {
    const d = descriptorOf(message)
    const parameters = message.channel === 'whatsapp' ? Object.values(message.whatsapp.parameters).join('\n') : ''
    text = [message.to, d.from(message as never) ?? '', d.subject(message as never) ?? '', message.text, d.template(message as never) ?? '', parameters].join('\n').toLowerCase()
    searchTexts.set(message, text)
  }
  return text
}

/**
 * Links as a list carries them: at most {@link SUMMARY_LINKS}, each at most
 * {@link SUMMARY_LINK_LENGTH} characters (a hostile email's 100 links of 400 KiB each made one
 * page of the list 44 MB; issue 27, N11). The message by id keeps them whole.
 */
function listed(urls: string[]): string[] {
  const kept = urls.length > SUMMARY_LINKS ? urls.slice(0, SUMMARY_LINKS) : urls
  if (!kept.some((url) => url.length > SUMMARY_LINK_LENGTH)) return kept
  return kept.map((url) => (url.length > SUMMARY_LINK_LENGTH ? `${url.slice(0, SUMMARY_LINK_LENGTH)}…[+${url.length - SUMMARY_LINK_LENGTH} chars]` : url))
}

/** A message as the list shows it: no request body, no HTML, the text and links bounded. */
export function summarize(message: CapturedMessage): CapturedMessageSummary {
  const { request: _request, email: _email, sms: _sms, whatsapp: _whatsapp, text, links, images, ...rest } = message as CapturedMessage & Record<string, unknown>
  void _request; void _email; void _sms; void _whatsapp
  const cut = text.length > SUMMARY_TEXT_LENGTH
  return {
    ...rest,
    ...descriptorOf(message).summaryPart(message as never),
    text: cut ? text.slice(0, SUMMARY_TEXT_LENGTH) : text,
    text_truncated: cut,
    links: listed(links),
    images: listed(images),
    links_total: links.length,
  } as CapturedMessageSummary
}

/** Bytes a captured message holds, roughly: what the outbox's byte budget counts. */
export function weightOf(message: CapturedMessage): number {
  // The request body repeats the content; count it once more through the channel's own weight.
  return 512 + descriptorOf(message).weight(message as never)
}

/** A message's JSON for a store (fields still underived are not computed for it). */
export function storedMessageJson(message: CapturedMessage): string {
  return storedJson(message)
}

/** A message parsed back from a store, made whole again (an email's derived fields, lazily). */
export function revivedMessage(message: CapturedMessage): CapturedMessage {
  return message.channel === 'email' ? (reviveEmail(message as unknown as Record<string, unknown>) as unknown as CapturedMessage) : message
}

export { emailChannel, smsChannel, whatsappChannel }
export type { CaptureContext, InboundReply, CaptureInput, CaptureInputOf, CaptureOutcome, ChannelDescriptor, Sender } from './types.js'
