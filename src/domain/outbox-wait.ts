/**
 * Waiting on the outbox: the promise a `waitFor` returns once nothing already there matches, and
 * what a wait that timed out says instead of a dump.
 */
import { WAIT_TIMEOUT_MS } from '../contract/constants.js'
import type { CapturedMessage } from '../contract/captured-message.js'
import { CHANNEL_DESCRIPTORS, summaryOf } from './channels/index.js'
import { checkFilter, type OutboxFilter } from './outbox-filter.js'
import { timeProblem } from './clock.js'
import { immediate } from './event-loop.js'

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

/**
 * The verdicts of the message being offered to the waits: a wait whose filter another wait has
 * the same key of reuses its verdict, so 1,000 waits on one filter cost one evaluation of it
 * per message (issue 36, R3), not 1,000.
 */
export class SharedVerdicts {
  private message: CapturedMessage | undefined
  private readonly verdicts = new Map<string, boolean>()

  /** True when another wait with this key already judged `message` (asking again costs nothing). */
  known(message: CapturedMessage, key: string): boolean {
    return this.message === message && this.verdicts.has(key)
  }

  of(message: CapturedMessage, key: string, match: (message: CapturedMessage) => boolean): boolean {
    if (this.message !== message) {
      this.message = message
      this.verdicts.clear()
    }
    let verdict = this.verdicts.get(key)
    if (verdict === undefined) {
      verdict = match(message)
      this.verdicts.set(key, verdict)
    }
    return verdict
  }
}

/**
 * Characters of search text the waits may read for one message before the rest of their work
 * waits for a later turn of the event loop (issue 36, R3): 1,000 waits with a different `q` each
 * and one 1 MiB email read 1,000 MiB; in slices of this size, a health check (any request) is
 * answered between two slices instead of after all of them.
 */
export const WAIT_BUDGET_CHARS = 2 * 1024 * 1024

/**
 * The waits' work on the messages offered to them, bounded per turn: what fits in
 * {@link WAIT_BUDGET_CHARS} runs at once, the rest in order at the next turns (one {@link immediate}
 * each), so a send never holds the event loop for the waits' sake longer than one slice.
 */
export class WaitBudget {
  private spent = 0
  private readonly later: Array<{ cost: number; work: () => void }> = []
  private scheduled = false

  /** A new message is offered: its waits get a fresh budget (unless work is already waiting, which goes first). */
  open(): void {
    if (this.later.length === 0) this.spent = 0
  }

  /** Runs `work`, which reads `cost` characters, now if it fits in this turn's budget, else after what waits. */
  run(cost: number, work: () => void): void {
    if (this.later.length === 0 && (cost === 0 || this.spent + cost <= WAIT_BUDGET_CHARS)) {
      this.spent += cost
      return work()
    }
    this.later.push({ cost, work })
    if (!this.scheduled) {
      this.scheduled = true
      immediate(() => this.slice())
    }
  }

  /** Work left for later turns. */
  get pending(): number {
    return this.later.length
  }

  private slice(): void {
    this.scheduled = false
    this.spent = 0
    while (this.later.length > 0 && (this.spent === 0 || this.spent + this.later[0].cost <= WAIT_BUDGET_CHARS)) {
      const { cost, work } = this.later.shift()!
      this.spent += cost
      try {
        work()
      } catch (error) {
        console.error('[sendbox] a wait failed:', error)
      }
    }
    if (this.later.length > 0) {
      this.scheduled = true
      immediate(() => this.slice())
    }
  }
}

/** What is wrong with a `waitFor`'s filter or options (the error it rejects with), or undefined. */
export function waitProblem(filter: object, options: WaitOptions): Error | undefined {
  try {
    checkFilter(filter, 'outbox.waitFor')
  } catch (error) {
    return error as Error
  }
  const timeout = options.timeout ?? WAIT_TIMEOUT_MS.caller
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0 || timeout > 2 ** 31 - 1) {
    return new TypeError(
      `outbox.waitFor: timeout must be a number of milliseconds from 0 to ${2 ** 31 - 1} (got ${String(timeout)}).`,
    )
  }
  const sinceProblem = options.since === undefined ? undefined : timeProblem(options.since)
  return sinceProblem ? new RangeError(`outbox.waitFor: options.since ${sinceProblem}.`) : undefined
}

/** What a wait listens to: captures and status steps, and the count of waits in progress. */
export interface WaitSource {
  waiting: number
  /** Verdicts shared by the waits of one source (see {@link SharedVerdicts}). */
  readonly verdicts: SharedVerdicts
  /** The waits' work per message, bounded per turn (see {@link WaitBudget}). */
  readonly budget: WaitBudget
  onCapture(listener: (message: CapturedMessage) => void): () => void
  onTransition(listener: (transition: { message: CapturedMessage }) => void): () => void
}

/**
 * Resolves with the first message `match` accepts (`key` names what `match` decides: two waits
 * with one key share each message's verdict), captured or moved to a new status from now
 * on; rejects with `timedOut()` after `timeout` ms, or with the signal's reason when it aborts.
 * Event-driven: one timer and two listeners, nothing left behind once it settles. `cost` tells
 * how many characters `match` reads of a message (its `q` search), for the {@link WaitBudget}.
 */
export function nextMatch(
  source: WaitSource,
  match: (message: CapturedMessage) => boolean,
  key: string,
  timeout: number,
  signal: AbortSignal | undefined,
  timedOut: () => Error,
  cost: (message: CapturedMessage) => number = () => 0,
): Promise<CapturedMessage> {
  source.waiting++
  return new Promise((resolve, reject) => {
    const settle = () => {
      settled = true
      source.waiting--
      clearTimeout(timer)
      offCapture()
      offTransition()
      signal?.removeEventListener('abort', onAbort)
    }
    let settled = false
    const decide = (message: CapturedMessage) => {
      if (settled || !source.verdicts.of(message, key, match)) return
      settle()
      resolve(message)
    }
    const consider = (message: CapturedMessage) => {
      if (source.verdicts.known(message, key)) return decide(message)
      source.budget.run(cost(message), () => decide(message))
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

/** A filter's identity for {@link SharedVerdicts}: its fields in a fixed order, and the accounts a team's wait is limited to. */
export function waitKey(filter: OutboxFilter, accounts: ReadonlySet<string> | undefined): string {
  const fields = Object.entries(filter)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
  return JSON.stringify([fields, accounts === undefined ? null : [...accounts].sort()])
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
