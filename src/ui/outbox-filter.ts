import { searchTextOf } from '../domain/channels/index.js'
import type { CapturedMessage, Channel } from '../domain/outbox.js'

/** What the outbox list is narrowed to: a channel (`1`/`2`/`3`, `0` for all) and a search. */
export interface OutboxView {
  channel: Channel | null
  /** Case-insensitive text searched in recipient, subject and message text; '' for none. */
  query: string
}

/** The text `/` searches: recipient, sender, subject, body text, template and parameters (the channel descriptors' search text). */
const searchable = searchTextOf

/**
 * The messages a view shows, newest first. Returns the snapshot itself when nothing filters, so
 * an unfiltered list of 10,000 is not copied on every update.
 */
export function filterOutbox(messages: readonly CapturedMessage[], view: OutboxView): readonly CapturedMessage[] {
  const query = view.query.trim().toLowerCase()
  if (view.channel === null && query === '') return messages
  return messages.filter((m) =>
    (view.channel === null || m.channel === view.channel) &&
    (query === '' || searchable(m).toLowerCase().includes(query)),
  )
}

/** Messages per channel, for the header. */
export function countByChannel(messages: readonly CapturedMessage[]): Record<Channel, number> {
  const counts: Record<Channel, number> = { email: 0, sms: 0, whatsapp: 0 }
  for (const m of messages) counts[m.channel]++
  return counts
}
