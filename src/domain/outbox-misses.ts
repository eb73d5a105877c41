/** What a wait that timed out says: the filter, the newest messages that did not match, and how many there are. */
import type { CapturedMessage } from '../contract/captured-message.js'
import { describeFilter, type OutboxFilter } from './outbox-filter.js'
import { queryOutbox, type OutboxView } from './outbox-query.js'
import { describeMisses } from './outbox-wait.js'
import { WaitTimeoutError } from './wait-timeout-error.js'

/** The newest messages that did not match: of the filter's channel if it names one, else any (of `accounts` only, when given). */
export function nearMissesOf(
  view: OutboxView,
  filter: OutboxFilter,
  count: number,
  accounts: ReadonlySet<string> | undefined,
): CapturedMessage[] {
  return queryOutbox(view, filter.channel === undefined ? {} : { channel: filter.channel }, accounts, 0, count, false)
    .data
}

/** The error a wait that timed out rejects with: the filter, then the nearest misses (among `accounts`' messages, when given). */
export function waitTimeoutError(
  view: OutboxView,
  filter: OutboxFilter,
  timeout: number,
  accounts: ReadonlySet<string> | undefined,
): WaitTimeoutError {
  const misses = nearMissesOf(view, filter, 3, accounts)
  const total = queryOutbox(view, {}, accounts, 0, 0, true).total
  return new WaitTimeoutError(
    `no ${describeFilter(filter)} in ${timeout} ms; ${describeMisses(filter, misses, total)}`,
    filter,
    timeout,
    misses,
  )
}
