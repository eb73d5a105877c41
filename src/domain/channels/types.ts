import type { CapturedMessage, CapturedMessageSummary, Channel, MessageOf } from '../../contract/captured-message.js'
import type { InboundChannel } from '../../contract/constants.js'
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

/** A message of one channel as the list carries it (`GET /__sandbox/messages`, the event stream). */
export type SummaryOf<C extends Channel> = Extract<CapturedMessageSummary, { channel: C }>
/**
 * A message as every reader gets it: the list's summary or the whole message (which has all of
 * the summary's fields but the list's counters). What the UIs, the filters and the matchers read.
 */
export type ReadableOf<C extends Channel> = Omit<SummaryOf<C>, 'text_truncated' | 'links_total'>
export type Readable = { [C in Channel]: ReadableOf<C> }[Channel]

/**
 * How one channel's message reads, wherever it is shown or searched: pure functions of the message
 * as listed, shared by the server, the terminal UI and the web inbox (which bundles this file, so
 * it imports no runtime beyond the contract's constants).
 */
export interface ChannelReading<C extends Channel> {
  channel: C
  /** Short human name (`Email`, `SMS`): what badges and messages call the channel. */
  label: string
  /** What `to` is on this channel: an email address or a phone number (E.164). */
  address: 'email' | 'phone'
  /** The sender as the `from` filter matches it, or null. */
  from(message: ReadableOf<C>): string | null
  /** The email subject, or null on channels without one. */
  subject(message: ReadableOf<C>): string | null
  /** The WhatsApp template name, or null. */
  template(message: ReadableOf<C>): string | null
  /** What `q` searches beyond the recipient, sender, subject, text and template (a template's parameter values). */
  searchExtras(message: ReadableOf<C>): readonly string[]
  /** One line for a list: subject, SMS lines joined with ⏎, or template and parameters. */
  summary(message: ReadableOf<C>): string
  /** The channel's own part of a listed message (the email without its HTML). */
  summaryPart(message: MessageOf<C>): Partial<CapturedMessageSummary>
}

/**
 * Everything one channel means to the sandbox, in one place: how it reads (above), how an
 * accepted send becomes a captured message (with its text, links and codes, computed once: here,
 * or on first read for a small email), and what it weighs in the outbox. `CapturedMessage` is
 * discriminated by `channel`, and `CHANNEL_DESCRIPTORS` is a record over every channel: a new
 * channel is a compile error until it has a descriptor.
 */
export type ChannelDescriptor<C extends Channel, Body> = CaptureDescriptor<C, Body> &
  (C extends InboundChannel
    ? {
        /** A simulated reply on this channel (`POST /__sandbox/inbound`): required on the contract's INBOUND_CHANNELS. */
        receive(reply: InboundReply): CaptureInputOf<C>
      }
    : { receive?: never })

interface CaptureDescriptor<C extends Channel, Body> extends ChannelReading<C> {
  /**
   * What the capture needs done first, or undefined when nothing is (the email's HTML tools, loaded by
   * the first email rather than by every sandbox's `ready`; a large HTML's derivation, in turns of
   * its own): the send route awaits it before capturing.
   */
  prepare?(body: Body): Promise<void> | undefined
  /** The capture of an accepted send (throws an ApiError for a magic recipient refused at once). */
  capture(
    sender: Sender,
    body: Body,
    raw: Record<string, unknown>,
    retryAfter: () => number,
    context?: CaptureContext,
  ): CaptureInputOf<C>
  /** Bytes the message holds in memory, roughly (UTF-16): what the outbox's byte budget counts. */
  weight(message: MessageOf<C>): number
  /** A message parsed back from a store made whole again (fields kept out of the store derived anew); absent: as parsed. */
  revive?(message: MessageOf<C>): MessageOf<C>
}

export type { CapturedMessage }
