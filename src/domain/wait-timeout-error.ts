import type { CapturedMessage } from '../contract/captured-message.js'
import type { OutboxFilter } from './outbox-filter.js'

/**
 * `waitFor` found no matching message in time. Its message names the filter and the nearest misses.
 * One class for the in-process outbox and the HTTP client (`sendbox/client`), so one `instanceof`
 * check catches both; it lives alone so that the client carries nothing else of the domain.
 */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError'
  constructor(
    message: string,
    readonly filter: OutboxFilter,
    readonly timeout: number,
    /** The newest messages of the filter's channel (or any channel) that did not match, newest first (empty from the client: the server names them in the message). */
    readonly misses: readonly CapturedMessage[],
  ) {
    super(message)
  }
}
