/**
 * Every webhook attempt, for the inspector (`GET /__sandbox/webhooks`): what was posted, what
 * came back, when the next retry is due. Plain data in a small bounded store of its own (a
 * persistence adapter may keep it later); oldest dropped first.
 */
import { ChangeLog } from './change-log.js'
import { FairStore } from './fair-collections.js'

/** One POST to the webhook URL. */
export interface WebhookAttempt {
  /** The attempt's own id (`wha_…`): what `POST /__sandbox/webhooks/{id}/replay` takes. */
  id: string
  /** The event's `webhook-id`: the same for every retry, duplicate and replay of one event. */
  webhook_id: string
  /** The event type (`message.delivered`, `message.received`…). */
  event: string
  url: string
  /** 1 for the first try, 2 for the first retry… (a replay starts again at 1). */
  attempt: number
  /** Why it was sent: `event` (first try), `retry`, `duplicate` (`--webhook-duplicates`) or `replay`. */
  trigger: 'event' | 'retry' | 'duplicate' | 'replay'
  /** Sandbox time when it was queued. */
  at: string
  /** `queued`, `sending`, `done` (answered 2xx) or `failed`. */
  state: 'queued' | 'sending' | 'done' | 'failed'
  request: { headers: Record<string, string>; body: string }
  /** The receiver's answer (status, the first bytes of its body, latency), or null (no answer yet, or none). */
  response: { status: number; body_excerpt: string; latency_ms: number } | null
  /** `timeout`, `network_error`, `http_<status>`, or null. */
  error: string | null
  /** When the next retry is due (sandbox time), or null. */
  next_retry_at: string | null
  /** The account whose message the event is about. */
  account: string
  /** The captured message the event is about (`GET /__sandbox/messages/{id}`); absent in attempts kept before it was recorded. */
  message_id?: string | null
  /** The attempt's line in the request journal, once it is done (null before). */
  journal_id: number | null
}

/** Attempts kept for the inspector, newest last; past it an account's own oldest go first (fairly, see {@link FairStore}). */
export const MAX_WEBHOOK_ATTEMPTS = 1_000

/** The inspector's store of attempts. */
export class WebhookAttemptStore {
  private readonly attempts: FairStore<string, WebhookAttempt>
  private changes: ChangeLog<string> | undefined

  constructor(private readonly capacity = MAX_WEBHOOK_ATTEMPTS) {
    this.attempts = new FairStore(capacity)
  }

  /** Keeps an attempt; past the cap, one account's flood evicts its own oldest attempts, never another's below its share (issue 36, R1). */
  add(attempt: WebhookAttempt): WebhookAttempt {
    const evicted = this.attempts.add(attempt.id, attempt.account, attempt)
    this.changes?.touch(attempt.id)
    for (const id of evicted) this.changes?.touch(id)
    return attempt
  }

  /** An attempt changed in place (sent, answered, failed, retry scheduled). */
  touch(id: string): void {
    this.changes?.touch(id)
  }

  /** Starts recording changes for a persistence adapter (see {@link ChangeLog}); returns the log. */
  trackChanges(): ChangeLog<string> {
    this.changes ??= new ChangeLog()
    return this.changes
  }

  /** The attempt as kept (not a copy: the adapter serialises it at once), if any. */
  peek(id: string): WebhookAttempt | undefined {
    return this.attempts.get(id)
  }

  /** Puts back attempts a store kept, oldest first; one that was waiting or sending when the sandbox stopped is marked failed. */
  restore(list: readonly WebhookAttempt[]): void {
    for (const kept of list.slice(-this.capacity)) {
      const attempt = structuredClone(kept)
      if (attempt.state === 'queued' || attempt.state === 'sending') {
        attempt.state = 'failed'
        attempt.error = attempt.error ?? 'interrupted: the sandbox stopped before it was answered'
        attempt.next_retry_at = null
      }
      this.attempts.add(attempt.id, attempt.account, attempt)
    }
  }

  get(id: string): WebhookAttempt | undefined {
    return this.attempts.get(id)
  }

  /** The attempt journaled as entry `id` (the terminal UI opens it from the Requests tab). */
  byJournalId(id: number): WebhookAttempt | undefined {
    for (const attempt of this.attempts.values()) if (attempt.journal_id === id) return structuredClone(attempt)
    return undefined
  }

  /** Newest first, as plain copies; of one account when given. */
  list(account?: string): WebhookAttempt[] {
    return [...this.attempts.values()]
      .filter((a) => account === undefined || a.account === account)
      .reverse()
      .map((a) => structuredClone(a))
  }

  get size(): number {
    return this.attempts.size
  }

  clear(): void {
    this.changes?.clear()
    this.attempts.clear()
  }
}
