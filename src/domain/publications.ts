import type { CapturedMessage } from '../contract/captured-message.js'
import type { SandboxEvents } from './events.js'
import type { MessageTransition } from './outbox-types.js'
import type { WaitBudget } from './outbox-wait.js'

/**
 * What the outbox tells the world (waiters, the event stream, webhooks), held until the change it
 * tells of is durable (issue 36, item 3, R14). Without a store a publication runs at once; with
 * one, it waits for the store's next committed write, and one about a message whose write failed
 * (and was undone) is dropped: a send answered 500 reached nobody. See
 * docs/decisions/durable-publication.md.
 */
export class Publications {
  private held: Array<{ id: string; run: (arg: never) => void; arg: unknown }> = []
  private readonly ids = new Map<string, number>()
  private onPending: (() => void) | undefined

  /** From now on publications wait for {@link release}; `onPending` is called when one is held (the store schedules a write). */
  hold(onPending: () => void): void {
    this.onPending = onPending
  }

  /** True while publications wait for the store. */
  get holding(): boolean {
    return this.onPending !== undefined
  }

  /**
   * Runs `run(arg)` now, or once the change about message `id` is durable. The argument beside the
   * function, not a closure over it: a capture and a step publish on every send, and without a
   * store they run at once.
   */
  publish(id: string, run: () => void): void
  publish<A>(id: string, run: (arg: A) => void, arg: A): void
  publish<A>(id: string, run: (arg: A) => void, arg?: A): void {
    if (this.onPending === undefined) return run(arg as A)
    this.held.push({ id, run, arg })
    this.ids.set(id, (this.ids.get(id) ?? 0) + 1)
    if (this.held.length === 1) this.onPending()
  }

  /** True while something about message `id` waits to be published (a new wait must not see it yet). */
  pending(id: string): boolean {
    return this.ids.has(id)
  }

  /** How many publications wait. */
  get size(): number {
    return this.held.length
  }

  /** The store committed: everything held is published, in the order it happened. */
  release(): void {
    while (this.held.length > 0) {
      const batch = this.held
      this.held = []
      this.ids.clear()
      for (const { run, arg } of batch) {
        try {
          run(arg as never)
        } catch (error) {
          console.error('[sendbox] a publication failed:', error)
        }
      }
    }
  }

  /** The store could not write these messages (they were undone): what they would have published is dropped. */
  discard(ids: Iterable<string>): void {
    const gone = new Set(ids)
    if (gone.size === 0) return
    this.held = this.held.filter((item) => !gone.has(item.id))
    for (const id of gone) this.ids.delete(id)
  }
}

/**
 * The outbox's listeners (waits, webhooks) and its events, reached through {@link Publications}:
 * every capture, step and deletion is told once its write is durable.
 */
export class OutboxFeed {
  readonly publications = new Publications()
  private readonly captureListeners = new Set<(message: CapturedMessage) => void>()
  private readonly transitionListeners = new Set<(transition: MessageTransition) => void>()

  constructor(
    private readonly events: SandboxEvents | undefined,
    private readonly budget?: WaitBudget,
  ) {}

  captured(message: CapturedMessage): void {
    this.publications.publish(message.message_id, this.tellCapture, message)
  }

  private readonly tellCapture = (message: CapturedMessage): void => {
    this.budget?.open()
    for (const listener of this.captureListeners) listener(message)
    this.events?.emit({ type: 'message.captured', message })
  }

  stepped(transition: MessageTransition): void {
    this.publications.publish(transition.message.message_id, this.tellStep, transition)
  }

  private readonly tellStep = (transition: MessageTransition): void => {
    this.budget?.open()
    for (const listener of this.transitionListeners) listener(transition)
    this.events?.emit({ type: 'message.status', message: transition.message, change: transition.change })
  }

  deleted(id: string, account: string): void {
    this.publications.publish(id, () => this.events?.emit({ type: 'message.deleted', message_id: id, account }))
  }

  /** Whether anyone hears of captures and steps now (a listener, an event stream, a store holding them): what they are told may be kept. */
  get heard(): boolean {
    return (
      this.captureListeners.size > 0 ||
      this.transitionListeners.size > 0 ||
      (this.events !== undefined && this.events.size > 0) ||
      this.publications.holding
    )
  }

  onCapture(listener: (message: CapturedMessage) => void): () => void {
    this.captureListeners.add(listener)
    return () => void this.captureListeners.delete(listener)
  }

  onTransition(listener: (transition: MessageTransition) => void): () => void {
    this.transitionListeners.add(listener)
    return () => void this.transitionListeners.delete(listener)
  }
}
