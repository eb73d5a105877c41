import type { CheckReport } from '../../contract/checks.js'
import type { CapturedMessage } from '../../contract/captured-message.js'
import { ChangeLog } from '../change-log.js'
import { ApiError, retryAfterHeader } from '../errors.js'
import type { CheckOptions } from './index.js'
import { FairQueue } from '../fair-collections.js'

/**
 * The check reports a sandbox keeps (issue 35): a message's report is computed when first asked
 * for, never on the send path, and kept with the message (and in the `--data` store, through the
 * change log like every persisted part); `refresh` computes it again. A report with live link
 * results serves a later static request too (it is the static report plus those results).
 *
 * Checks run at most {@link CheckReports.concurrency} at once; up to {@link CheckReports.maxQueued}
 * more wait their turn, and past that a request is refused with 503 `too_many_clients` and a
 * `Retry-After`, so a thousand requests at once never run a thousand checks at once. Two requests
 * for the same report share one run. The waiting room is shared fairly between accounts (issue 36,
 * R1): accounts are served in turn, and past the bound an account at its share is refused, while
 * one below it takes the place of the oldest waiting check of the account holding most (that one
 * is answered the 503).
 */
export interface ReportRequest {
  links?: 'live' | 'static'
  refresh?: boolean
}

/** What the part needs from the sandbox: its messages, and how to check them (settings, worker, clock). */
export interface CheckReportsOptions {
  peek(id: string): CapturedMessage | undefined
  checkOptions(): CheckOptions
  concurrency?: number
  maxQueued?: number
}

export const DEFAULT_CHECK_CONCURRENCY = 4
export const DEFAULT_MAX_QUEUED_CHECKS = 100

export class CheckReports {
  readonly concurrency: number
  readonly maxQueued: number
  private readonly kept = new Map<string, CheckReport>()
  private readonly running = new Map<string, Promise<CheckReport>>()
  private readonly waiting: FairQueue<{ start: () => void; refuse: (error: ApiError) => void }>
  private active = 0
  private changes: ChangeLog<string> | undefined

  constructor(private readonly options: CheckReportsOptions) {
    this.concurrency = options.concurrency ?? DEFAULT_CHECK_CONCURRENCY
    this.maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED_CHECKS
    this.waiting = new FairQueue(this.maxQueued)
  }

  /** The message's report: the kept one when it answers the request, else a fresh one (queued, then kept). */
  report(message: CapturedMessage, request: ReportRequest = {}): Promise<CheckReport> {
    const live = request.links === 'live'
    const kept = this.kept.get(message.message_id)
    if (kept && !request.refresh && (kept.live_links || !live)) return Promise.resolve(kept)
    const key = `${message.message_id}\u0000${live ? 'live' : 'static'}`
    const shared = this.running.get(key)
    if (shared) return shared
    const account = message.account
    if (this.active >= this.concurrency && this.waiting.full && this.waiting.victimFor(account) === account)
      return Promise.reject(this.refusal())
    let started = false
    const run = this.turn(account)
      .then(() => {
        started = true
        // Loaded on the first check, not with the sandbox: `import('sendbox')` stays light (issue 37)
        // and caniemail's data is parsed only when an email is checked.
        return import('./index.js')
      })
      .then(({ checkMessage }) =>
        checkMessage(message, { ...this.options.checkOptions(), links: live ? 'live' : 'static' }),
      )
      .finally(() => {
        this.running.delete(key)
        if (started) this.release()
      })
      .then((report) => this.keep(report))
    this.running.set(key, run)
    return run
  }

  /** Checks running or waiting their turn right now. */
  get pending(): number {
    return this.active + this.waiting.length
  }

  /** 503 `too_many_clients`: the waiting room is full (or holds this account's share). */
  private refusal(): ApiError {
    return new ApiError(
      'too_many_clients',
      `${this.active + this.waiting.length} checks are running or queued (at most ${this.concurrency} run at once, ${this.maxQueued} wait, shared fairly between accounts). Retry in a few seconds.`,
      undefined,
      retryAfterHeader(2),
    )
  }

  private turn(account: string): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      const start = () => {
        this.active++
        resolve()
      }
      this.waiting.push(account, { start, refuse: reject })?.refuse(this.refusal())
    })
  }

  private release(): void {
    this.active--
    this.waiting.shift()?.start()
  }

  private keep(report: CheckReport): CheckReport {
    // A message deleted or evicted while it was checked: answered, not kept.
    if (this.options.peek(report.message_id) === undefined) return report
    this.kept.set(report.message_id, report)
    this.changes?.touch(report.message_id)
    this.prune()
    return report
  }

  /** Reports of messages no longer in the outbox go (checked when the kept ones outnumber a margin). */
  private prune(): void {
    if (this.kept.size % 64 !== 0) return
    for (const id of this.kept.keys()) {
      if (this.options.peek(id) === undefined) this.forget(id)
    }
  }

  /** The kept report of a message, if any (what the store writes and the UIs show without checking). */
  peek(id: string): CheckReport | undefined {
    const report = this.kept.get(id)
    if (report !== undefined && this.options.peek(id) === undefined) {
      this.forget(id)
      return undefined
    }
    return report
  }

  /** Drops a message's report. */
  forget(id: string): void {
    if (this.kept.delete(id)) this.changes?.touch(id)
  }

  /** Drops every report (the outbox was cleared). */
  clear(): void {
    this.kept.clear()
    this.changes?.clear()
  }

  /** Starts recording changes for a persistence adapter; returns the log. */
  trackChanges(): ChangeLog<string> {
    this.changes ??= new ChangeLog()
    return this.changes
  }

  /** Reports read back from a store (those of messages still kept). */
  restore(reports: readonly CheckReport[]): void {
    for (const report of reports) {
      if (this.options.peek(report.message_id) !== undefined) this.kept.set(report.message_id, report)
    }
  }
}
