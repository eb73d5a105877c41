import type { Channel } from '../../contract/captured-message.js'
import { ApiError, ERROR_CODES, retryAfterHeader } from '../errors.js'
import { findCodes, linksInText } from '../extract.js'
import { magicOutcome } from '../magic-recipients.js'
import { maskKey } from '../plans.js'
import { newId } from '../random.js'
import type { CaptureOutcome, InboundReply, Sender } from './types.js'

/** Applies the magic-recipient table: throws for "refused at once", else gives how the message will end. */
export function outcomeFor(recipient: string, retryAfter: () => number): CaptureOutcome {
  const outcome = magicOutcome(recipient)
  if (outcome.kind === 'reject') {
    const { status } = ERROR_CODES[outcome.code]
    const headers: Record<string, string> = status === 429 ? retryAfterHeader(retryAfter()) : {}
    throw new ApiError(outcome.code, outcome.message, status === 400 ? 'to' : undefined, headers)
  }
  return outcome
}

/** The fields every capture starts with. */
export function base<C extends Channel>(sender: Sender, channel: C, to: string, request: Record<string, unknown>) {
  return {
    message_id: newId('msg_'),
    channel,
    direction: 'outbound' as const,
    account: sender.account,
    plan: sender.plan,
    key: maskedKey(sender.key),
    to,
    request,
  }
}

/** The last key masked and its mask: sends come in runs of one key, and every message of a run then shares one string. */
let lastKey: string | undefined
let lastMasked = ''
function maskedKey(key: string): string {
  if (key !== lastKey) {
    lastMasked = maskKey(key)
    lastKey = key
  }
  return lastMasked
}

/**
 * The derived fields of a message that is its text (an SMS, a reply, a filled template): the
 * text, its links, no images, and its codes (read from the text unless the channel reads them
 * otherwise).
 */
export function fromText(text: string, codes: string[] = findCodes(text)) {
  return { text, links: linksInText(text), images: [] as string[], codes }
}

/** Bytes a string holds in memory (V8 keeps non-Latin-1 strings as UTF-16). */
export function stringWeight(value: string): number {
  return value.length * 2
}

/** The fields every simulated reply starts with: `to` is the app's number, the sender is in the channel part. */
export function inboundBase<C extends Channel>(reply: InboundReply, channel: C) {
  return { ...base(reply.sender, channel, reply.to, reply.raw), direction: 'inbound' as const }
}
