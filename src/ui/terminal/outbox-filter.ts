import { searchTextOf } from '../../domain/channels/index.js'
import { matchesWords, searchWords } from '../../domain/outbox-filter.js'
import { CHANNELS, type CapturedMessage, type Channel } from '../../contract/captured-message.js'
import type { JournalEntry } from '../../contract/journal.js'
import type { OutboxView, RequestKind } from './ui-state.js'

/**
 * The messages a view shows, newest first: channel (`1 2 3 0`), status (`s`) and search (`/`)
 * (every word, in any order) over recipient, sender, subject, body text, template and parameters (the channel descriptors'
 * search text, lower-cased once per message). Returns the snapshot itself when nothing filters,
 * so an unfiltered list of 10,000 is not copied on every update.
 */
export function filterOutbox(messages: readonly CapturedMessage[], view: OutboxView): readonly CapturedMessage[] {
  const query = view.query.trim().toLowerCase()
  if (view.channel === null && view.status === null && query === '' && view.account === null) return messages
  const words = searchWords(query)
  return messages.filter(
    (m) =>
      (view.account === null || m.account === view.account) &&
      (view.channel === null || m.channel === view.channel) &&
      (view.status === null || m.status === view.status) &&
      (query === '' || matchesWords(searchTextOf(m), words)),
  )
}

/** True for a journal entry that is an error: an error status or an error code. */
export function isError(entry: JournalEntry): boolean {
  return entry.status >= 400 || entry.status === 0 || entry.error_code !== null
}

/** The journal as the Requests list shows it: all, or errors only (`e`); API requests or webhook attempts only (`w`). */
export function filterRequests(
  requests: readonly JournalEntry[],
  errorsOnly: boolean,
  kind: RequestKind = 'all',
): readonly JournalEntry[] {
  if (!errorsOnly && kind === 'all') return requests
  return requests.filter((e) => (!errorsOnly || isError(e)) && (kind === 'all' || e.kind === kind))
}

/** Messages per channel, for the header. */
export function countByChannel(messages: readonly CapturedMessage[]): Record<Channel, number> {
  const counts = Object.fromEntries(CHANNELS.map((channel) => [channel, 0])) as Record<Channel, number>
  for (const m of messages) counts[m.channel]++
  return counts
}
