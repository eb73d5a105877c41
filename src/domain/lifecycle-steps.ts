/**
 * The delivery lifecycle's clock: which message takes its next step (queued → sent →
 * delivered/failed) when, and a real-time timer armed for the next one. Every message waits the
 * same `deliveryMs` per step, so each step's queue is in due order and the next due step is the
 * earlier of the two heads. The outbox applies the steps (see `Outbox.advance`).
 */
import type { StatusChange } from '../contract/captured-message.js'
import type { CaptureInput } from './channels/index.js'
import { failureCode } from './magic-recipients.js'
import { Queue } from './queue.js'

/** A message's next step: 0 = sent, 1 = delivered or failed (by its outcome). */
export interface PendingStep {
  id: string
  createdMs: number
  outcome: CaptureInput['outcome']
  step: 0 | 1
  /** When it is due (`createdMs` + `deliveryMs` per step): kept, not recomputed at each look (a timestamp is a heap number). */
  due: number
}

export class LifecycleSteps {
  private readonly queues: [Queue<PendingStep>, Queue<PendingStep>] = [new Queue(), new Queue()]
  private timer: ReturnType<typeof setTimeout> | undefined
  private timerDue = Infinity

  constructor(
    readonly deliveryMs: number,
    private readonly now: () => number,
    /** Called by the timer when a step is due (the outbox advances). */
    private readonly onDue: () => void,
  ) {}

  /** Queues a message's step: its first for a new message, or the one it stopped at for a restored one. */
  add(id: string, createdMs: number, outcome: CaptureInput['outcome'], step: 0 | 1 = 0): void {
    this.queues[step].push({ id, createdMs, outcome, step, due: this.dueAt(createdMs, step) })
  }

  /** The oldest message left the outbox: dropped from the queue it heads, if any (both are in creation order). */
  dropOldest(id: string): void {
    for (const queue of this.queues) if (queue.peek()?.id === id) queue.shift()
  }

  /** When a message's step is due: `deliveryMs` after the step before it. */
  private dueAt(createdMs: number, step: 0 | 1): number {
    return createdMs + this.deliveryMs * (step + 1)
  }

  /** The next step due at `now`, taken off its queue (the message's second step queued after its first), or undefined. */
  takeDue(now: number): PendingStep | undefined {
    const item = this.next()
    if (!item || item.due > now) return undefined
    this.queues[item.step].shift()
    return item
  }

  /** Queues the message's last step after its first was applied. */
  followUp(item: PendingStep): void {
    if (item.step !== 0) return
    // The same object, moved on (it left its queue when taken): no new one per step.
    item.step = 1
    item.due = this.dueAt(item.createdMs, 1)
    this.queues[1].push(item)
  }

  private next(): PendingStep | undefined {
    const first = this.queues[0].peek()
    const second = this.queues[1].peek()
    if (!first) return second
    if (!second) return first
    return first.due <= second.due ? first : second
  }

  /** Keeps a real-time timer armed for the next due step, so live views and webhooks move on their own. */
  schedule(): void {
    const item = this.next()
    if (!item) return
    const dueMs = item.due
    if (this.timer !== undefined && this.timerDue <= dueMs) return
    if (this.timer !== undefined) clearTimeout(this.timer)
    const wait = Math.min(Math.max(dueMs - this.now(), 0), 2 ** 31 - 1)
    this.timerDue = dueMs
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.timerDue = Infinity
      this.onDue()
    }, wait)
    ;(this.timer as { unref?: () => void }).unref?.()
  }

  /** Stops the timer (the clock moved, the outbox was cleared or disposed). */
  stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    this.timerDue = Infinity
  }

  clear(): void {
    this.queues[0].clear()
    this.queues[1].clear()
    this.stopTimer()
  }
}

/** The status change a step makes, at its due time. */
export function stepChange(item: PendingStep, at: string): StatusChange {
  if (item.step === 0) return { status: 'sent', at }
  return item.outcome.kind === 'failed'
    ? { status: 'failed', at, reason: item.outcome.reason, error_code: failureCode(item.outcome.reason) }
    : { status: 'delivered', at }
}

/**
 * `[...history, change]` at its exact length: V8 gives a spread's array ~16 spare slots (~140
 * bytes a message kept), and `concat` was the dearest line of a lifecycle step.
 */
export function historyWith(history: readonly StatusChange[], change: StatusChange): StatusChange[] {
  const next = new Array<StatusChange>(history.length + 1)
  for (let i = 0; i < history.length; i++) next[i] = history[i]
  next[history.length] = change
  return next
}
