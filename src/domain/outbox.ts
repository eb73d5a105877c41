import type { Plan } from './plans.js'
import type { SmsEncoding } from './sms-encoding.js'

export type Channel = 'email' | 'sms' | 'whatsapp'
export const CHANNELS: readonly Channel[] = ['email', 'sms', 'whatsapp']
export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'failed'
export const MESSAGE_STATUSES: readonly MessageStatus[] = ['queued', 'sent', 'delivered', 'failed']

export interface StatusChange {
  status: MessageStatus
  /** ISO 8601 UTC. */
  at: string
  reason?: string
}

/** A message that "would have been sent": what the API accepted, and what happened to it since. */
export interface CapturedMessage {
  message_id: string
  channel: Channel
  account: string
  plan: Plan
  /** The sending key, masked. */
  key: string
  to: string
  /** The request body exactly as the client sent it (parsed JSON). */
  request: Record<string, unknown>
  status: MessageStatus
  /** Why a failed message failed; null otherwise. */
  reason: string | null
  status_history: StatusChange[]
  created_at: string
  email?: { from: { email: string; name: string | null } | null; subject: string; html: string }
  sms?: { text: string; from: string | null } & SmsEncoding
  whatsapp?: { template: string; language: string; parameters: Record<string, string>; preview: string }
}

/** What the outbox needs to know when capturing: the message, and how it will end. */
export interface CaptureInput extends Omit<CapturedMessage, 'status' | 'reason' | 'status_history' | 'created_at'> {
  outcome: { kind: 'delivered' } | { kind: 'failed'; reason: string }
}

export interface OutboxFilter {
  channel?: Channel
  to?: string
  status?: MessageStatus
  /** Unix milliseconds: only messages created at or after it. */
  since?: number
  account?: string
}

/** A lifecycle step, as webhooks and the journal see it. */
export interface MessageTransition {
  message: CapturedMessage
  change: StatusChange
}

/** A shallow copy of `source`'s own fields, in their order, without `omit`. */
function withFields<T>(source: object, omit?: string): T {
  const copy: Record<string, unknown> = {}
  for (const name of Object.keys(source)) {
    if (name !== omit) copy[name] = (source as Record<string, unknown>)[name]
  }
  return copy as T
}

/** A FIFO queue with O(1) amortised shift. */
class Queue<T> {
  private items: T[] = []
  private head = 0
  push(item: T): void {
    this.items.push(item)
  }
  peek(): T | undefined {
    return this.items[this.head]
  }
  shift(): T | undefined {
    const item = this.items[this.head++]
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return item
  }
  clear(): void {
    this.items = []
    this.head = 0
  }
}

interface Pending {
  id: string
  createdMs: number
  outcome: CaptureInput['outcome']
  step: 0 | 1
}

/**
 * The captured messages of one sandbox: bounded (oldest evicted first), newest first when listed,
 * each moving `queued → sent → delivered | failed` one step every `deliveryMs` of the injected clock.
 * Steps are applied lazily on every read and by a timer, so a test that advances its fake clock
 * sees the new status without sleeping.
 */
export class Outbox {
  private entries: CapturedMessage[] = []
  private start = 0
  private readonly byId = new Map<string, number>()
  private seqBase = 0
  private readonly queues: [Queue<Pending>, Queue<Pending>] = [new Queue(), new Queue()]
  private readonly listeners = new Set<() => void>()
  private readonly transitionListeners = new Set<(transition: MessageTransition) => void>()
  private snapshotCache: readonly CapturedMessage[] | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private timerDue = Infinity
  /** Messages evicted by the cap since the last clear. */
  evicted = 0

  constructor(
    private readonly now: () => number,
    readonly capacity = 10_000,
    readonly deliveryMs = 1_000,
  ) {}

  /** Captures an accepted send. */
  capture(input: CaptureInput): CapturedMessage {
    const createdMs = this.now()
    const createdAt = new Date(createdMs).toISOString()
    // Same fields in the same order as `{ ...fields, status, … }` after `const { outcome, ...fields } = input`,
    // copied by hand: V8 runs object rest on a slow runtime path (~6 µs a capture, more than all the rest).
    const message = withFields<CapturedMessage>(input, 'outcome')
    message.status = 'queued'
    message.reason = null
    message.status_history = [{ status: 'queued', at: createdAt }]
    message.created_at = createdAt
    const { outcome } = input
    this.byId.set(message.message_id, this.seqBase + this.entries.length)
    this.entries.push(message)
    if (this.entries.length - this.start > this.capacity) this.evictOldest()
    this.queues[0].push({ id: message.message_id, createdMs, outcome, step: 0 })
    this.changed()
    this.advance()
    return this.get(message.message_id) ?? message
  }

  private evictOldest(): void {
    const oldest = this.entries[this.start]
    this.byId.delete(oldest.message_id)
    // Both step queues are in creation order, so the oldest message, if still pending, heads one.
    for (const queue of this.queues) if (queue.peek()?.id === oldest.message_id) queue.shift()
    this.start++
    this.evicted++
    if (this.start >= 1024 && this.start * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.start)
      this.seqBase += this.start
      this.start = 0
    }
  }

  private indexOf(id: string): number | undefined {
    const seq = this.byId.get(id)
    return seq === undefined ? undefined : seq - this.seqBase
  }

  /**
   * Applies every lifecycle step that is due at the injected clock's `now`. Called on every
   * read, on every capture and by a timer; cheap when nothing is due.
   */
  advance(): void {
    const now = this.now()
    let changed = false
    for (;;) {
      const item = this.nextDue()
      if (!item) break
      const dueMs = item.createdMs + this.deliveryMs * (item.step + 1)
      if (dueMs > now) break
      this.queues[item.step].shift()
      const index = this.indexOf(item.id)
      if (index === undefined) continue // evicted before it finished
      const current = this.entries[index]
      const at = new Date(dueMs).toISOString()
      const change: StatusChange =
        item.step === 0
          ? { status: 'sent', at }
          : item.outcome.kind === 'failed'
            ? { status: 'failed', at, reason: item.outcome.reason }
            : { status: 'delivered', at }
      // `{ ...current, status, reason, status_history }`, copied by hand (see capture).
      const next = withFields<CapturedMessage>(current)
      next.status = change.status
      next.reason = change.reason ?? null
      next.status_history = [...current.status_history, change]
      this.entries[index] = next
      changed = true
      if (item.step === 0) this.queues[1].push({ ...item, step: 1 })
      for (const listener of this.transitionListeners) listener({ message: next, change })
    }
    if (changed) this.changed()
    this.schedule()
  }

  /**
   * Every message waits the same delay per step, so each step's queue is ordered by due time;
   * the next due step is the earlier of the two heads.
   */
  private nextDue(): Pending | undefined {
    const first = this.queues[0].peek()
    const second = this.queues[1].peek()
    if (!first) return second
    if (!second) return first
    return first.createdMs + this.deliveryMs <= second.createdMs + 2 * this.deliveryMs ? first : second
  }

  /** Keeps a real-time timer armed for the next due step, so live views and webhooks move on their own. */
  private schedule(): void {
    const item = this.nextDue()
    if (!item) return
    const dueMs = item.createdMs + this.deliveryMs * (item.step + 1)
    if (this.timer !== undefined && this.timerDue <= dueMs) return
    if (this.timer !== undefined) clearTimeout(this.timer)
    const wait = Math.min(Math.max(dueMs - this.now(), 0), 2 ** 31 - 1)
    this.timerDue = dueMs
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.timerDue = Infinity
      this.advance()
    }, wait)
    ;(this.timer as { unref?: () => void }).unref?.()
  }

  /** Captured messages, newest first, filtered. */
  list(filter: OutboxFilter = {}): CapturedMessage[] {
    this.advance()
    return this.collect(filter)
  }

  private collect(filter: OutboxFilter): CapturedMessage[] {
    const to = filter.to?.toLowerCase()
    const out: CapturedMessage[] = []
    for (let i = this.entries.length - 1; i >= this.start; i--) {
      const m = this.entries[i]
      if (filter.channel && m.channel !== filter.channel) continue
      if (filter.status && m.status !== filter.status) continue
      if (filter.account !== undefined && m.account !== filter.account) continue
      if (to !== undefined && m.to.toLowerCase() !== to) continue
      if (filter.since !== undefined && Date.parse(m.created_at) < filter.since) continue
      out.push(m)
    }
    return out
  }

  get(id: string): CapturedMessage | undefined {
    this.advance()
    const index = this.indexOf(id)
    return index === undefined ? undefined : this.entries[index]
  }

  get size(): number {
    return this.entries.length - this.start
  }

  clear(): void {
    this.entries = []
    this.start = 0
    this.seqBase = 0
    this.byId.clear()
    this.queues[0].clear()
    this.queues[1].clear()
    this.evicted = 0
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    this.timerDue = Infinity
    this.changed()
  }

  /** Stops the timer (the sandbox is being disposed). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }

  /** A stable array (newest first) for `useSyncExternalStore`: same reference until something changes. */
  snapshot = (): readonly CapturedMessage[] => {
    this.snapshotCache ??= this.collect({})
    return this.snapshotCache
  }

  /** Calls `listener` after any change (capture, status step, clear). Returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** Calls `listener` on every lifecycle step (what webhooks are made of). */
  onTransition(listener: (transition: MessageTransition) => void): () => void {
    this.transitionListeners.add(listener)
    return () => {
      this.transitionListeners.delete(listener)
    }
  }

  private changed(): void {
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
  }
}
