import type { CapturedMessage, CapturedMessageSummary, Channel, MessageOf } from '../../schemas/captured-message.js'
import type { ApiKeyConfig } from '../plans.js'
import type { TemplateBook } from '../templates.js'

/** How a captured message will end (from the magic-recipient table). */
export type CaptureOutcome = { kind: 'delivered' } | { kind: 'failed'; reason: string }

/**
 * What the outbox needs to capture a message of one channel: the message but its lifecycle (a
 * fresh object the outbox takes as it is, adding the lifecycle fields), and how it will end.
 */
export type CaptureInputOf<C extends Channel> = {
  message: Omit<MessageOf<C>, 'status' | 'reason' | 'status_history' | 'created_at'>
  outcome: CaptureOutcome
}
/** What the outbox captures, whatever the channel. */
export type CaptureInput = { [C in Channel]: CaptureInputOf<C> }[Channel]

/** What a capture may consult besides the request: the configured WhatsApp templates. */
export interface CaptureContext {
  templates?: TemplateBook
}

/** A person's reply, as `POST /__sandbox/inbound` takes it (the account resolved). */
export interface InboundReply {
  sender: ApiKeyConfig
  from: string
  to: string
  text: string
  raw: Record<string, unknown>
}

/** Who is sending: the authenticated key. */
export type Sender = ApiKeyConfig

/**
 * Everything one channel means to the sandbox, in one place: how an accepted send becomes a
 * captured message (with its text, links and codes, computed once: here, or on first read for a small email), and how the outbox,
 * its filters, the list and the UIs read it. `CapturedMessage` is discriminated by `channel`,
 * and `CHANNEL_DESCRIPTORS` is a record over every channel: a new channel is a compile error
 * until it has a descriptor.
 */
export interface ChannelDescriptor<C extends Channel, Body> {
  channel: C
  /** Short human name: Email, SMS, WhatsApp. */
  label: string
  /** The capture of an accepted send (throws an ApiError for a magic recipient refused at once). */
  capture(sender: Sender, body: Body, raw: Record<string, unknown>, retryAfter: () => number, context?: CaptureContext): CaptureInputOf<C>
  /** A simulated reply on this channel (`POST /__sandbox/inbound`); absent on channels nobody replies on. */
  receive?(reply: InboundReply): CaptureInputOf<C>
  /** The sender as the `from` filter matches it, or null. */
  from(message: MessageOf<C>): string | null
  /** The email subject, or null on channels without one. */
  subject(message: MessageOf<C>): string | null
  /** The WhatsApp template name, or null. */
  template(message: MessageOf<C>): string | null
  /** One line for a list: subject, first SMS line (lines joined with ⏎), or template and parameters. */
  summary(message: MessageOf<C>): string
  /** The channel's own part of a listed message (the email without its HTML). */
  summaryPart(message: MessageOf<C>): Partial<CapturedMessageSummary>
  /** Bytes the message holds in memory, roughly (UTF-16): what the outbox's byte budget counts. */
  weight(message: MessageOf<C>): number
}

export type { CapturedMessage }
