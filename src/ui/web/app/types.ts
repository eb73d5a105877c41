/**
 * What the web inbox reads from the /__sandbox API: the contract's types (type-only imports,
 * nothing of zod reaches the bundle).
 */
import type {
  CapturedMessage as DomainMessage,
  CapturedMessageSummary,
  Channel,
  MessageStatus,
  StatusChange,
} from '../../../contract/captured-message.js'
import type { JournalEntry } from '../../../contract/journal.js'
import type { StreamEvent } from '../../../contract/events.js'

/** One event of `GET /__sandbox/events` (messages in it are summaries). */
export type { Channel, JournalEntry, MessageStatus, StatusChange, StreamEvent }

/** One captured message as `GET /__sandbox/messages/{id}` answers it. */
export type CapturedMessage = DomainMessage

/** One row of `GET /__sandbox/messages`: no request body, no email HTML, text capped. */
export type MessageSummary = CapturedMessageSummary

export type { EmailMessage, SmsMessage, WhatsappMessage } from '../../../contract/captured-message.js'

import type { z } from 'zod'
import type { keyInfoSchema } from '../../../contract/controls.js'
import { CHANNELS as CONTRACT_CHANNELS, MESSAGE_STATUSES } from '../../../contract/constants.js'

/** The pagination envelope of every /__sandbox listing: the contract's (a type-only import). */
export type { Page } from '../../../contract/pagination.js'

/** One key of `GET /__sandbox/keys`: the contract's schema. */
export type KeyUsage = z.infer<typeof keyInfoSchema>

export const CHANNELS: readonly Channel[] = CONTRACT_CHANNELS
export const STATUSES: readonly MessageStatus[] = MESSAGE_STATUSES
export { CHANNEL_LABELS } from '../../../domain/channels/readings.js'
