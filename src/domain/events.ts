import type { CapturedMessage, StatusChange } from '../contract/captured-message.js'
import type { JournalEntry } from '../contract/journal.js'
import { SANDBOX_EVENT_TYPES, type StreamEvent } from '../contract/events.js'

/** What `GET /__sandbox/events` streams and `sandbox.events.subscribe` delivers. */
export type SandboxEvent =
  | { type: 'message.captured'; message: CapturedMessage }
  | { type: 'message.status'; message: CapturedMessage; change: StatusChange }
  | { type: 'message.deleted'; message_id: string; account: string }
  | { type: 'request'; entry: JournalEntry }
  | { type: 'reset'; scope: string; accounts?: string[] }

// The types are the stream's (the contract's): the in-process events carry whole messages, the
// stream their summaries; a type on one side only fails to compile here.
export { SANDBOX_EVENT_TYPES }
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameTypes: SameSet<SandboxEvent['type'], StreamEvent['type']> = true
void sameTypes

/**
 * The sandbox's event feed: the domain emits, transports and UIs subscribe (never the other way
 * round). Listeners run synchronously; one that throws is reported and the others still run.
 */
export class SandboxEvents {
  private readonly listeners = new Set<(event: SandboxEvent) => void>()

  subscribe(listener: (event: SandboxEvent) => void): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** Subscribers right now (the SSE route's clients among them). */
  get size(): number {
    return this.listeners.size
  }

  emit(event: SandboxEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (error) {
        console.error('[sendbox] an event listener failed:', error)
      }
    }
  }
}
