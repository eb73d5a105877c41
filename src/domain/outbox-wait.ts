/**
 * Waiting on the outbox: the promise a `waitFor` returns once nothing already there matches, and
 * what a wait that timed out says instead of a dump.
 */
import type { CapturedMessage } from '../contract/captured-message.js'
import { CHANNEL_DESCRIPTORS, summaryOf } from './channels/index.js'
import type { OutboxFilter } from './outbox-filter.js'

/** Options of `Outbox.waitFor`. */
export interface WaitOptions {
  /** Milliseconds to wait; default 5000. */
  timeout?: number
  /** Unix milliseconds: only messages created at or after it count (default: any time). */
  since?: number
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal
  /** Only messages of these accounts count, and only they are named in a timeout's misses (a team token's wait). */
  accounts?: ReadonlySet<string>
}

/** What a wait listens to: captures and status steps, and the count of waits in progress. */
export interface WaitSource {
  waiting: number
  onCapture(listener: (message: CapturedMessage) => void): () => void
  onTransition(listener: (transition: { message: CapturedMessage }) => void): () => void
}

/**
 * Resolves with the first message `match` accepts, captured or moved to a new status from now
 * on; rejects with `timedOut()` after `timeout` ms, or with the signal's reason when it aborts.
 * Event-driven: one timer and two listeners, nothing left behind once it settles.
 */
export function nextMatch(source: WaitSource, match: (message: CapturedMessage) => boolean, timeout: number, signal: AbortSignal | undefined, timedOut: () => Error): Promise<CapturedMessage> {
  source.waiting++
  return new Promise((resolve, reject) => {
    const settle = () => {
      source.waiting--
      clearTimeout(timer)
      offCapture()
      offTransition()
      signal?.removeEventListener('abort', onAbort)
    }
    const consider = (message: CapturedMessage) => {
      if (!match(message)) return
      settle()
      resolve(message)
    }
    const onAbort = () => {
      settle()
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      settle()
      // Never throw from a timer (that would end the process): whatever goes wrong rejects the wait.
      try {
        reject(timedOut())
      } catch (error) {
        reject(error)
      }
    }, timeout)
    const offCapture = source.onCapture(consider)
    const offTransition = source.onTransition(({ message }) => consider(message))
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** "the last 3 SMS went to +1…, +44…" — what a failed wait or matcher prints instead of a dump. */
export function describeMisses(filter: OutboxFilter, misses: readonly CapturedMessage[], total: number): string {
  if (total === 0) return 'the outbox is empty'
  const what = filter.channel ? CHANNEL_DESCRIPTORS[filter.channel].label : 'messages'
  if (misses.length === 0) return `no ${what} at all (${total} other message${total === 1 ? '' : 's'} in the outbox)`
  const shown = misses.map((m) => {
    const line = summaryOf(m)
    const cut = line.length > 40 ? `${line.slice(0, 39)}…` : line
    const channel = filter.channel ? '' : `${CHANNEL_DESCRIPTORS[m.channel].label} `
    return `${channel}${m.to} "${cut}" (${m.status})`
  })
  return `the last ${misses.length === 1 ? '' : `${misses.length} `}${what} went to ${shown.join(', ')}`
}
