import type { Journal } from './journal.js'
import type { MessageTransition } from './outbox.js'
import { isoAt } from './clock.js'

/** Where and how lifecycle events are posted. */
export interface WebhookOptions {
  url: string
  /** HMAC-SHA256 key for `X-Sendbox-Signature`; default `sendbox_webhook_secret`. */
  secret?: string
  /** Attempts in all (first try + retries); default 5. */
  attempts?: number
  /** Backoff before retry k is `baseDelayMs * 2^(k-1)`; default 500. */
  baseDelayMs?: number
  /** Per-attempt timeout; default 5000. */
  timeoutMs?: number
}

/** The signing secret when none is configured. */
export const DEFAULT_WEBHOOK_SECRET = 'sendbox_webhook_secret'

/** The JSON a webhook receives. */
export interface WebhookEvent {
  type: 'message.sent' | 'message.delivered' | 'message.failed'
  message_id: string
  channel: string
  status: string
  reason?: string
  at: string
}

/** `sha256=<hex>` of the raw body under the secret, as sent in `X-Sendbox-Signature`. */
export async function signWebhook(body: string, secret: string): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(body)))
  let hex = ''
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0')
  return `sha256=${hex}`
}

/**
 * Posts every lifecycle step to a URL, off the request path: sends never wait for it. Failed
 * posts are retried with exponential backoff; every attempt lands in the journal.
 */
export class WebhookSender {
  private readonly inFlight = new Set<Promise<void>>()
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private stopped = false

  constructor(
    private readonly options: WebhookOptions,
    private readonly journal: Journal,
    private readonly now: () => number,
  ) {}

  /** Queues the event for a transition; returns at once. */
  send(transition: MessageTransition): void {
    const { message, change } = transition
    const event: WebhookEvent = {
      type: `message.${change.status}` as WebhookEvent['type'],
      message_id: message.message_id,
      channel: message.channel,
      status: change.status,
      ...(change.reason ? { reason: change.reason } : {}),
      at: change.at,
    }
    this.attempt(JSON.stringify(event), 1, message.account)
  }

  private attempt(body: string, attempt: number, account: string): void {
    if (this.stopped) return
    const started = performance.now()
    const at = isoAt(this.now())
    const path = safePath(this.options.url)
    const task = signWebhook(body, this.options.secret ?? DEFAULT_WEBHOOK_SECRET)
      .then((signature) =>
        fetch(this.options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-sendbox-signature': signature,
            'x-sendbox-attempt': String(attempt),
          },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
        }),
      )
      .then((response) => {
        // The answer's body is not needed: release it, but never wait for that. Cancelling an
        // msw-mocked response's stream (a receiver that is an msw handler under setupServer) may
        // never settle, which left the attempt unjournaled, unretried and idle() pending forever.
        response.body?.cancel().catch(() => {})
        return { status: response.status, error: response.ok ? null : `http_${response.status}` }
      })
      .catch(() => ({ status: 0, error: 'network_error' }))
      .then(({ status, error }) => {
        this.journal.record({
          at,
          kind: 'webhook',
          method: 'POST',
          path,
          status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
          error_code: error,
          account,
          key: null,
        })
        const attempts = this.options.attempts ?? 5
        if (error && attempt < attempts && !this.stopped) {
          const delay = (this.options.baseDelayMs ?? 500) * 2 ** (attempt - 1)
          const timer = setTimeout(() => {
            this.timers.delete(timer)
            this.attempt(body, attempt + 1, account)
          }, delay)
          timer.unref?.()
          this.timers.add(timer)
        }
      })
      .finally(() => {
        this.inFlight.delete(task)
      })
    this.inFlight.add(task)
  }

  /** Resolves when no attempt is in flight or waiting (tests and shutdown use it). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.timers.size > 0) {
      await Promise.race([...this.inFlight, new Promise((r) => setTimeout(r, 10))])
    }
  }

  stop(): void {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }
}

function safePath(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.host}${parsed.pathname}`
  } catch {
    return url
  }
}
