/** The outbox's option and event types (kept apart from outbox.ts, which re-exports them). */
import { defaultOf } from '../contract/settings.js'
import type { CapturedMessage, Channel, MessageOf, StatusChange } from '../contract/captured-message.js'
import type { SandboxEvents } from './events.js'

/** A lifecycle step, as webhooks, events and the journal see it. */
export interface MessageTransition {
  message: CapturedMessage
  change: StatusChange
}

/** The narrowed message type of a filter that names its channel. */
export type MessageFor<F> = F extends { channel: infer C extends Channel } ? MessageOf<C> : CapturedMessage

/** Options of the {@link Outbox}. */
export interface OutboxOptions {
  /** Most messages kept (oldest evicted first); default 10,000. */
  capacity?: number
  /** Most bytes kept, roughly (oldest evicted first); default 256 MiB. */
  maxBytes?: number
  /** Milliseconds per lifecycle step; default 1000, 0 = instant. */
  deliveryMs?: number
  /** Where captures, steps and deletions are announced. */
  events?: SandboxEvents
}

/** The default byte budget of the outbox: 256 MiB. */
export const DEFAULT_OUTBOX_BYTES = defaultOf('max-outbox-mb') * 1024 * 1024
