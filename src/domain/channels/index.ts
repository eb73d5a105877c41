import type { CapturedMessage, Channel, MessageOf } from '../../contract/captured-message.js'
import { emailChannel } from './email/capture.js'
import { storedJson, storedJsonSteps, underived } from './derived.js'
import { smsChannel } from './sms/capture.js'
import type { ChannelDescriptor } from './types.js'
import { whatsappChannel } from './whatsapp/capture.js'

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

/** Bytes a captured message holds, roughly: what the outbox's byte budget counts. */
export function weightOf(message: CapturedMessage): number {
  // The request body repeats the content; count it once more through the channel's own weight.
  return 512 + descriptorOf(message).weight(message as never)
}

/** A message's JSON for a store (fields still underived are not computed for it). */
export function storedMessageJson(message: CapturedMessage): string {
  return storedJson(message)
}

/** A message's JSON for a store in steps (a step after each large field); undefined while its derived fields are still to be computed (then {@link storedMessageJson} writes them as null at once). */
export function storedMessageJsonSteps(message: CapturedMessage): Generator<void, string, void> | undefined {
  return underived(message) ? undefined : storedJsonSteps(message)
}

/** A message parsed back from a store, made whole again (an email's derived fields, lazily). */
export function revivedMessage(message: CapturedMessage): CapturedMessage {
  return descriptorOf(message).revive?.(message as never) ?? message
}

export { emailChannel, smsChannel, whatsappChannel }
export {
  CHANNEL_LABELS,
  CHANNEL_READINGS,
  channelList,
  readingOf,
  searchTextFor,
  searchTextOf,
  searchCostOf,
  keepSearchText,
  senderOf,
  summarize,
  summaryOf,
} from './readings.js'
export type {
  CaptureContext,
  InboundReply,
  CaptureInput,
  CaptureInputOf,
  CaptureOutcome,
  ChannelDescriptor,
  ChannelReading,
  Readable,
  ReadableOf,
  Sender,
  SummaryOf,
} from './types.js'
