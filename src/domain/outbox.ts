import { WAIT_TIMEOUT_MS } from '../contract/constants.js'
import { defaultOf } from '../contract/settings.js'
import type { CapturedMessage, Channel, MessageOf, MessageStatus, StatusChange } from '../contract/captured-message.js'
import { CHANNELS, MESSAGE_STATUSES } from '../contract/captured-message.js'
import { keepSearchText, searchCostOf, weightOf, type CaptureInput } from './channels/index.js'
import { copyFields } from './channels/derived.js'
import { checkFilter, compileFilter, type MessagePredicate, type OutboxFilter } from './outbox-filter.js'
import { PreviewTokens } from './preview-tokens.js'
import { OutboxFeed } from './publications.js'
import { isoAt } from './clock.js'
import { WaitTimeoutError } from './wait-timeout-error.js'
import {
  describeMisses,
  nextMatch,
  SharedVerdicts,
  WaitBudget,
  waitKey,
  waitProblem,
  type WaitOptions,
} from './outbox-wait.js'
import { historyWith, LifecycleSteps, stepChange } from './lifecycle-steps.js'
import { ChangeLog } from './change-log.js'
import { IdIndex } from './id-index.js'
import { OutboxIndex, oldestOfLargestAccount } from './outbox-index.js'
import { queryOutbox, SearchTexts, type OutboxView, type QueryResult } from './outbox-query.js'
import { nearMissesOf, waitTimeoutError } from './outbox-misses.js'

export { CHANNELS, MESSAGE_STATUSES }
export type { CapturedMessage, Channel, MessageOf, MessageStatus, StatusChange, CaptureInput, OutboxFilter }

export { DEFAULT_OUTBOX_BYTES, type MessageFor, type MessageTransition, type OutboxOptions } from './outbox-types.js'
import { DEFAULT_OUTBOX_BYTES, type MessageFor, type MessageTransition, type OutboxOptions } from './outbox-types.js'
export type { WaitOptions }
export { WaitTimeoutError, describeMisses }

/**
 * The captured messages of one sandbox: bounded by count and by bytes (oldest evicted first),
 * newest first when listed, each moving `queued → sent → delivered | failed` one step every
 * `deliveryMs` of the injected clock. Steps are applied lazily on every read and by a timer, so a
 * test that advances its fake clock sees the new status without sleeping.
 */
export class Outbox implements OutboxView {
  /** Oldest first; a deleted message leaves a hole (null) until it is evicted or compacted (read by queries only). */
  entries: Array<CapturedMessage | null> = []
  private weights: number[] = []
  /** Each message's search text, and their joins by block (see outbox-query.ts). */
  readonly search = new SearchTexts(this)
  start = 0
  live = 0
  /** Ids to sequence numbers (see id-index.ts), each checked against the message kept there. */
  private readonly byId = new IdIndex((seq) => this.entries[seq - this.seqBase]?.message_id)
  seqBase = 0
  /** Recipients, accounts and channels to their messages (see outbox-index.ts). */
  readonly index = new OutboxIndex((seq) => this.isKeptSeq(seq))
  private readonly listeners = new Set<() => void>()
  /** Waits, webhooks and events hear of captures, steps and deletions through it, once durable. */
  readonly feed: OutboxFeed
  private readonly previewTokens = new PreviewTokens()
  private snapshotCache: readonly CapturedMessage[] | null = null
  /** Messages evicted by the caps since the last clear. */
  evicted = 0
  /** The same, per account (a team's health and the metrics show them). */
  readonly evictedBy = new Map<string, number>()
  /** Bytes the kept messages hold, roughly (what `maxBytes` bounds). */
  bytes = 0
  /** `waitFor` calls still waiting (each holds one timer and two listeners, nothing else). */
  waiting = 0
  /** What the waits decided about the message being offered to them (one evaluation per distinct filter). */
  readonly verdicts = new SharedVerdicts()
  /** The waits' work per message, bounded per turn of the event loop (issue 36, R3). */
  readonly budget = new WaitBudget()
  readonly capacity: number
  readonly maxBytes: number
  readonly deliveryMs: number
  private readonly steps: LifecycleSteps
  /**
   * The highest sequence number whose message may have left the outbox's hands: read (list, get,
   * a page, a wait, a snapshot) or told to a listener or an event stream. A lifecycle step copies
   * those, so what someone holds stays as it was read; a message nobody was handed changes in
   * place (at the bench's rates every message took its first step as a copy: an allocation, a
   * promotion and old-generation garbage per send).
   */
  private exposedThrough = -1
  /** Changes since the persistence adapter last wrote (only while one is attached). */
  private changes: ChangeLog<string, true> | undefined
  /** The outcome of each outbound message still in its lifecycle, kept only while changes are tracked (a restart resumes it). */
  private readonly outcomes = new Map<string, CaptureInput['outcome']>()

  constructor(
    private readonly now: () => number,
    options: OutboxOptions = {},
  ) {
    this.capacity = options.capacity ?? defaultOf('max-messages')
    this.maxBytes = options.maxBytes ?? DEFAULT_OUTBOX_BYTES
    this.deliveryMs = options.deliveryMs ?? defaultOf('delivery-ms')
    this.steps = new LifecycleSteps(this.deliveryMs, now, () => this.advance())
    this.feed = new OutboxFeed(options.events, this.budget)
  }

  /** Captures an accepted send (built by the channel's descriptor, which derives text, links and codes). */
  capture(input: CaptureInput): CapturedMessage {
    const createdMs = this.now()
    const createdAt = isoAt(createdMs)
    // The channel built the message for the outbox alone: it is kept as it is, with its lifecycle
    // fields added after the channel's (a copy cost ~3 % of an email send's CPU).
    const message = input.message as CapturedMessage
    // A simulated reply has arrived: it is delivered at once and has no lifecycle to go through.
    const inbound = message.direction === 'inbound'
    message.status = inbound ? 'delivered' : 'queued'
    message.reason = null
    message.status_history = [{ status: message.status, at: createdAt }]
    message.created_at = createdAt
    this.keep(message)
    if (this.feed.heard) this.exposeAll()
    if (!inbound) this.steps.add(message.message_id, createdMs, input.outcome)
    if (this.changes) {
      this.changes.touch(message.message_id, true)
      if (!inbound) this.outcomes.set(message.message_id, input.outcome)
    }
    this.feed.captured(message)
    this.changed()
    this.advance()
    // Advanced just now: the message as kept (a step due at once, with no delivery delay, replaced it).
    // For its route, which answers with its id: not a read that exposes it.
    return this.kept(message.message_id) ?? message
  }

  /** Adds a message at the newest end, then applies the caps. */
  private keep(message: CapturedMessage): void {
    const weight = weightOf(message)
    const seq = this.seqBase + this.entries.length
    this.byId.set(message.message_id, seq)
    this.entries.push(message)
    this.weights.push(weight)
    this.search.push()
    this.live++
    this.bytes += weight
    this.index.add(message, seq, weight)
    while (this.live > this.capacity || (this.bytes > this.maxBytes && this.live > 1))
      this.evictOne(this.bytes > this.maxBytes)
  }

  /** Evicts for a cap: the oldest message of the account holding the most (see {@link oldestOfLargestAccount}). */
  private evictOne(forBytes: boolean): void {
    const index = oldestOfLargestAccount(this.index, forBytes) - this.seqBase
    const message = this.entries[index]!
    this.evictedBy.set(message.account, (this.evictedBy.get(message.account) ?? 0) + 1)
    this.forget(message.message_id, index)
    if (index === this.start) this.steps.dropOldest(message.message_id)
    this.evicted++
    this.compact()
  }

  private readonly isKeptSeq = (seq: number): boolean => {
    const position = seq - this.seqBase
    return position >= this.start && this.entries[position] != null
  }

  /** Drops a kept message's bookkeeping (its slot is left for the caller). */
  private forget(id: string, index: number): void {
    this.changes?.touch(id)
    this.outcomes.delete(id)
    this.byId.delete(id)
    this.previewTokens.forget(id)
    const message = this.entries[index]!
    const weight = this.weights[index]
    this.bytes -= weight
    this.weights[index] = 0
    this.entries[index] = null
    this.search.drop(index)
    this.live--
    this.index.remove(message, weight)
  }

  private compact(): void {
    while (this.start < this.entries.length && this.entries[this.start] === null) this.start++
    if (this.start >= 1024 && this.start * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.start)
      this.weights = this.weights.slice(this.start)
      this.search.compacted(this.start, this.seqBase + this.start)
      this.seqBase += this.start
      this.start = 0
    }
  }

  private indexOf(id: string): number | undefined {
    const seq = this.byId.get(id)
    return seq === undefined ? undefined : seq - this.seqBase
  }

  /**
   * Applies every lifecycle step that is due at the injected clock's `now`, in order. Called on
   * every read, on every capture, by a timer, and when the sandbox clock moves; cheap when
   * nothing is due.
   */
  advance(): void {
    const now = this.now()
    let changed = false
    for (let item = this.steps.takeDue(now); item !== undefined; item = this.steps.takeDue(now)) {
      const index = this.indexOf(item.id)
      if (index === undefined) continue // evicted or deleted before it finished
      const current = this.entries[index]!
      const change = stepChange(item, isoAt(item.due))
      // `{ ...current, status, reason, status_history }`, copied by hand (see capture), when someone may hold it.
      const held = this.seqBase + index <= this.exposedThrough || this.feed.heard
      const next = held ? copyFields<CapturedMessage>(current) : current
      if (held) keepSearchText(current, next)
      next.status = change.status
      next.reason = change.reason ?? null
      next.status_history = historyWith(current.status_history, change)
      this.entries[index] = next
      changed = true
      this.steps.followUp(item)
      if (item.step === 1) this.outcomes.delete(item.id)
      this.changes?.touch(item.id)
      this.feed.stepped({ message: next, change })
    }
    if (changed) this.changed()
    this.steps.schedule()
  }

  /** The clock was moved (frozen, advanced or reset): re-arm the step timer for the new time. */
  clockMoved(): void {
    this.steps.stopTimer()
    this.advance()
  }

  /**
   * Captured messages, newest first, filtered. A filter that names its channel narrows the type
   * (`list({ channel: 'sms' })[0].sms.text`). An unknown filter key is a TypeError.
   */
  list<F extends OutboxFilter>(filter?: F): Array<MessageFor<F>> {
    if (filter !== undefined) checkFilter(filter, 'outbox.list')
    this.advance()
    this.exposeAll()
    return queryOutbox(this, filter ?? {}, undefined, 0, Infinity, false).data as Array<MessageFor<F>>
  }

  /**
   * One page of `list(filter)` (of `accounts`' messages only, when given) and how many match in
   * all, from the newest, visiting only what the filter's recipient, account or channel narrows
   * to; the count comes from the index when the filter is one of them alone.
   */
  page(filter: OutboxFilter, accounts: ReadonlySet<string> | undefined, page: number, limit: number): QueryResult {
    checkFilter(filter, 'outbox.page')
    this.advance()
    this.exposeAll()
    return queryOutbox(this, filter, accounts, (page - 1) * limit, limit, true)
  }

  /** The newest message `page` would list first, without counting the others. */
  first(filter: OutboxFilter, accounts?: ReadonlySet<string>): CapturedMessage | undefined {
    this.advance()
    this.exposeAll()
    return queryOutbox(this, filter, accounts, 0, 1, false).data[0]
  }

  get(id: string): CapturedMessage | undefined {
    this.advance()
    this.exposeAll()
    return this.kept(id)
  }

  /** The message as kept, without applying due lifecycle steps (for the persistence adapter). */
  peek(id: string): CapturedMessage | undefined {
    this.exposeAll()
    return this.kept(id)
  }

  private kept(id: string): CapturedMessage | undefined {
    const index = this.indexOf(id)
    return index === undefined ? undefined : (this.entries[index] ?? undefined)
  }

  /** Deletes one message (`undo`: a capture the store could not keep, told to nobody); false when there is none with that id. */
  delete(id: string, undo = false): boolean {
    const index = this.indexOf(id)
    if (index === undefined) return false
    const account = this.entries[index]!.account
    this.forget(id, index)
    this.compact()
    if (undo) this.feed.publications.discard([id])
    else this.feed.deleted(id, account)
    this.changed()
    return true
  }

  /** Messages kept. */
  get size(): number {
    return this.live
  }

  /**
   * Resolves with the first message matching `filter` captured (or moved to a matching status)
   * from now on — or at once with the newest one already there (created at or after `since`,
   * when given). Event-driven: no timer loops, no polling; nothing is left behind once it
   * settles. Rejects with a {@link WaitTimeoutError} naming the filter and the nearest misses.
   *
   * @example
   * const sms = await sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550123' })
   * expect(sms.codes[0]).toMatch(/^\d{6}$/)
   */
  waitFor<F extends OutboxFilter>(filter: F, options: WaitOptions = {}): Promise<MessageFor<F>> {
    const problem = waitProblem(filter, options)
    if (problem) return Promise.reject(problem)
    const timeout = options.timeout ?? WAIT_TIMEOUT_MS.caller
    const effective: OutboxFilter =
      options.since === undefined ? filter : { ...filter, since: Math.max(filter.since ?? -Infinity, options.since) }
    const accounts = options.accounts
    const filtered = compileFilter(effective)
    const match: MessagePredicate = accounts === undefined ? filtered : (m) => accounts.has(m.account) && filtered(m)
    this.advance()
    this.exposeAll()
    // A message whose capture or step is not durable yet is not told to a new wait either: it hears of it once it is.
    const publications = this.feed.publications
    const [existing] = queryOutbox(
      this,
      effective,
      accounts,
      0,
      1,
      false,
      publications.holding ? (id) => publications.pending(id) : undefined,
    ).data
    if (existing) return Promise.resolve(existing as MessageFor<F>)
    const signal = options.signal
    if (signal?.aborted) return Promise.reject(signal.reason)
    // A `q` reads the message's search text: the waits' budget counts it (issue 36, R3).
    const cost = effective.q === undefined ? undefined : searchCostOf
    return nextMatch(
      this,
      match,
      waitKey(effective, accounts),
      timeout,
      signal,
      () => this.timeoutError(effective, timeout, accounts),
      cost,
    ) as Promise<MessageFor<F>>
  }

  /** The newest messages that did not match: of the filter's channel if it names one, else any (of `accounts` only, when given). */
  nearMisses(filter: OutboxFilter, count = 3, accounts?: ReadonlySet<string>): CapturedMessage[] {
    this.exposeAll()
    return nearMissesOf(this, filter, count, accounts)
  }

  /** The error a wait that timed out rejects with: the filter, then the nearest misses (among `accounts`' messages, when given). */
  timeoutError(filter: OutboxFilter, timeout: number, accounts?: ReadonlySet<string>): WaitTimeoutError {
    this.exposeAll()
    return waitTimeoutError(this, filter, timeout, accounts)
  }

  /**
   * An unguessable token that opens this one message's HTML preview without the admin token
   * (`/__sandbox/messages/{id}/html?token=…`). Undefined for an unknown message.
   */
  previewToken(id: string): string | undefined {
    return this.byId.has(id) ? this.previewTokens.of(id) : undefined
  }

  /** True when `token` is this message's preview token. */
  checkPreviewToken(id: string, token: string): boolean {
    return this.previewTokens.check(id, token)
  }

  clear(): void {
    this.entries = []
    this.weights = []
    this.search.clear()
    this.index.clear()
    this.start = 0
    this.seqBase = 0
    this.live = 0
    this.bytes = 0
    this.byId.clear()
    this.previewTokens.clear()
    this.steps.clear()
    this.evicted = 0
    this.evictedBy.clear()
    this.changes?.clear()
    this.outcomes.clear()
    this.changed()
  }

  /** Starts recording changes for a persistence adapter (see {@link ChangeLog}; `true`: captured in this batch); returns the log. */
  trackChanges(): ChangeLog<string, true> {
    this.changes ??= new ChangeLog()
    return this.changes
  }

  /** How a message still in its lifecycle will end (tracked only while changes are): what a store keeps to resume it. */
  pendingOutcome(id: string): CaptureInput['outcome'] | undefined {
    return this.outcomes.get(id)
  }

  /**
   * Puts back messages a store kept, oldest first, before any capture: each outbound message still
   * in its lifecycle resumes it (steps that came due while the sandbox was down happen at once, in
   * order). The caps apply as they do to captures.
   */
  restore(rows: Iterable<{ message: CapturedMessage; outcome?: CaptureInput['outcome'] }>, evicted = 0): void {
    for (const { message, outcome } of rows) {
      this.keep(message)
      if (
        outcome !== undefined &&
        message.direction !== 'inbound' &&
        (message.status === 'queued' || message.status === 'sent')
      ) {
        const createdMs = Date.parse(message.created_at)
        this.steps.add(message.message_id, createdMs, outcome, message.status === 'queued' ? 0 : 1)
        if (this.changes) this.outcomes.set(message.message_id, outcome)
      }
    }
    this.evicted += evicted
    this.changed()
    this.advance()
  }

  /** Stops the timer (the sandbox is being disposed). */
  dispose(): void {
    this.steps.stopTimer()
  }

  /** A stable array (newest first) for `useSyncExternalStore`: same reference until something changes. */
  snapshot = (): readonly CapturedMessage[] => {
    this.exposeAll()
    this.snapshotCache ??= queryOutbox(this, {}, undefined, 0, Infinity, false).data
    return this.snapshotCache
  }

  /** Calls `listener` after any change (capture, status step, delete, clear). Returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** Calls `listener` with every newly captured message (once durable, with a store). Returns the unsubscribe. */
  onCapture(listener: (message: CapturedMessage) => void): () => void {
    return this.feed.onCapture(listener)
  }

  /** Calls `listener` on every lifecycle step (what webhooks and events are made of). */
  onTransition(listener: (transition: MessageTransition) => void): () => void {
    return this.feed.onTransition(listener)
  }

  /** Every message kept now may be held by someone: their steps copy them from here on. */
  private exposeAll(): void {
    this.exposedThrough = this.seqBase + this.entries.length - 1
  }

  private changed(): void {
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
  }
}
