import type { Webhook } from 'standardwebhooks'
import type { Journal } from './journal.js'
import type { MessageTransition } from './outbox.js'
import { isoAt } from './clock.js'
import { failureCode, type FailureCode } from './magic-recipients.js'
import { newId, seededRandom } from './random.js'
import { WebhookAttemptStore, type WebhookAttempt } from './webhook-attempts.js'
import { FairQueue } from './fair-collections.js'
import { postWithFetch, WebhookPostError, type WebhookPost } from './webhook-post-fetch.js'

/** Where and how lifecycle events are posted. */
export interface WebhookOptions {
  url: string
  /**
   * The Standard Webhooks secret, `whsec_<base64>`; one is generated when none is given
   * (`sandbox.webhooks.secret`). Any other string is used as raw key bytes (the old
   * `X-Sendbox-Signature` secrets keep working).
   */
  secret?: string
  /** Attempts in all (first try + retries); default 5. */
  attempts?: number
  /** Backoff before retry k is `baseDelayMs * 2^(k-1)`; default 500. */
  baseDelayMs?: number
  /** Per-attempt timeout, answer included; default 5000. */
  timeoutMs?: number
  /** Probability (0 to 1) that an event is sent twice, with the same `webhook-id` (seeded); default 0. */
  duplicates?: number
  /** Seed of the duplicates' draws; default the sandbox's seed. */
  seed?: number
  /** Attempts in flight at once; default and maximum {@link WEBHOOK_CONCURRENCY}. */
  concurrency?: number
  /** How a post is made; default fetch (on Node, `createSandbox` passes a node:http post that closes its socket at the deadline). */
  post?: WebhookPost
}

/** Most attempts in flight at once: at most this many sockets to the receiver, whatever it does. */
export const WEBHOOK_CONCURRENCY = 16
/** Most attempts waiting for a slot; past it an oldest waiting one is dropped (recorded as failed): the flooding account's own (see {@link FairQueue}). */
export const WEBHOOK_QUEUE_LIMIT = 10_000
/** Bytes of a receiver's answer read (the inspector's excerpt); the rest is never read. */
export const WEBHOOK_RESPONSE_EXCERPT_BYTES = 1_024

/** The JSON a webhook receiver gets. */
export interface WebhookEvent {
  type: 'message.sent' | 'message.delivered' | 'message.failed' | 'message.received'
  message_id: string
  channel: string
  status: string
  reason?: string
  /** A failed delivery's stable code: `bounced`, `unreachable`, `opted_out` or `blocked`. */
  error_code?: FailureCode
  /** `message.received`: who replied, to which number, and what. */
  from?: string
  to?: string
  text?: string
  at: string
}

/** A `whsec_` secret whose rest is base64 of at least one byte, or any other non-empty string (raw key bytes). */
function validSecret(secret: string): boolean {
  if (!secret.startsWith('whsec_')) return secret.length > 0
  const rest = secret.slice('whsec_'.length)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(rest) || rest.length % 4 !== 0) return false
  try {
    return atob(rest).length > 0
  } catch {
    return false
  }
}

/** A new Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function generateWebhookSecret(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(24))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}

/** `sha256=<hex>` of the raw body under the secret: the old `X-Sendbox-Signature`, still sent during the migration. */
export async function signWebhook(body: string, secret: string): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(body)))
  let hex = ''
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0')
  return `sha256=${hex}`
}

/**
 * Posts every lifecycle step and reply to a URL, off the request path: sends never wait for it.
 * Signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`); an
 * event keeps its `webhook-id` across retries, duplicates and replays. Attempts run through a
 * bounded queue ({@link WEBHOOK_CONCURRENCY} at once, each with a timeout, the answer read to
 * {@link WEBHOOK_RESPONSE_EXCERPT_BYTES}), so a receiver that hangs or answers megabytes never
 * slows the API nor grows memory. Every attempt lands in the journal and the inspector.
 */
export class WebhookSender {
  /** The Standard Webhooks secret in force (generated when none was configured). */
  readonly secret: string
  /** Every attempt, for the inspector. */
  readonly attempts = new WebhookAttemptStore()

  /** The URL events are posted to. */
  get url(): string {
    return this.options.url
  }
  /** The standardwebhooks signer, loaded at the first post (`import('sendbox')` stays light). */
  private signer: Promise<Webhook> | undefined
  /** Attempts waiting for a slot, served in turn per account (issue 36, R1). */
  private readonly waiting = new FairQueue<WebhookAttempt>(WEBHOOK_QUEUE_LIMIT)
  private active = 0
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private readonly idleWaiters = new Set<() => void>()
  private readonly random: () => number
  private stopped = false

  constructor(
    private readonly options: WebhookOptions,
    private readonly journal: Journal,
    private readonly now: () => number,
  ) {
    this.secret = options.secret ?? generateWebhookSecret()
    if (!validSecret(this.secret))
      throw new TypeError(
        'webhook secret: expected "whsec_" followed by base64 (at least one byte), like whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      )
    const p = options.duplicates ?? 0
    if (typeof p !== 'number' || !(p >= 0 && p <= 1))
      throw new RangeError(`webhook duplicates: a probability from 0 to 1 (got ${String(p)})`)
    this.random = seededRandom(options.seed ?? 1)
  }

  /** Queues the event of a lifecycle step; returns at once. */
  send(transition: MessageTransition): void {
    const { message, change } = transition
    const event: WebhookEvent = {
      type: `message.${change.status}` as WebhookEvent['type'],
      message_id: message.message_id,
      channel: message.channel,
      status: change.status,
      ...(change.reason ? { reason: change.reason, error_code: change.error_code ?? failureCode(change.reason) } : {}),
      at: change.at,
    }
    this.emit(event, message.account)
  }

  /** Queues any event (a reply's `message.received`), with a new `webhook-id`; returns at once. */
  emit(event: WebhookEvent, account: string): void {
    if (this.stopped) return
    // `evt_`, not `msg_`: a webhook-id must not be mistaken for the message_id in its body.
    const id = newId('evt_')
    const body = JSON.stringify(event)
    const about = { account, message_id: event.message_id }
    this.enqueue(id, event.type, body, 1, 'event', about)
    const p = this.options.duplicates ?? 0
    if (p > 0 && this.random() < p) this.enqueue(id, event.type, body, 1, 'duplicate', about)
  }

  /** Sends an attempt's event again, with the same `webhook-id`; undefined for an unknown attempt. */
  replay(attemptId: string): WebhookAttempt | undefined {
    const original = this.attempts.get(attemptId)
    if (!original) return undefined
    return this.enqueue(original.webhook_id, original.event, original.request.body, 1, 'replay', aboutOf(original))
  }

  private enqueue(
    webhookId: string,
    type: string,
    body: string,
    attempt: number,
    trigger: WebhookAttempt['trigger'],
    about: About,
  ): WebhookAttempt {
    const record = this.attempts.add({
      id: newId('wha_'),
      webhook_id: webhookId,
      event: type,
      url: this.options.url,
      attempt,
      trigger,
      at: isoAt(this.now()),
      state: 'queued',
      request: { headers: {}, body },
      response: null,
      error: null,
      next_retry_at: null,
      account: about.account,
      message_id: about.message_id,
      journal_id: null,
    })
    const dropped = this.waiting.push(record.account, record)
    if (dropped !== undefined) {
      dropped.state = 'failed'
      dropped.error = 'dropped: the webhook queue is full'
      this.attempts.touch(dropped.id)
    }
    this.pump()
    return record
  }

  private pump(): void {
    const limit = Math.min(this.options.concurrency ?? WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY)
    while (this.active < limit && this.waiting.length > 0 && !this.stopped) {
      const record = this.waiting.shift()!
      this.active++
      this.post(record)
        .catch((error) => console.error('[sendbox] a webhook attempt failed unexpectedly:', error))
        .finally(() => {
          this.active--
          this.pump()
          this.checkIdle()
        })
    }
    this.checkIdle()
  }

  private signerOf(): Promise<Webhook> {
    this.signer ??= import('standardwebhooks').then(({ Webhook }) =>
      this.secret.startsWith('whsec_') ? new Webhook(this.secret) : new Webhook(this.secret, { format: 'raw' }),
    )
    return this.signer
  }

  private async headersFor(record: WebhookAttempt): Promise<Record<string, string>> {
    // The timestamp is real time: receivers check it against their own clock (five minutes' tolerance).
    const timestamp = new Date()
    return {
      'content-type': 'application/json',
      'user-agent': 'sendbox-webhooks',
      'webhook-id': record.webhook_id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': (await this.signerOf()).sign(record.webhook_id, timestamp, record.request.body),
      'x-sendbox-signature': await signWebhook(record.request.body, this.secret),
      'x-sendbox-attempt': String(record.attempt),
    }
  }

  private async post(record: WebhookAttempt): Promise<void> {
    record.state = 'sending'
    record.request.headers = await this.headersFor(record)
    const started = performance.now()
    try {
      const answer = await (this.options.post ?? postWithFetch)(
        this.options.url,
        record.request.headers,
        record.request.body,
        this.options.timeoutMs ?? 5_000,
        WEBHOOK_RESPONSE_EXCERPT_BYTES,
      )
      record.response = {
        status: answer.status,
        body_excerpt: answer.excerpt,
        latency_ms: round(performance.now() - started),
      }
      record.error = answer.status >= 200 && answer.status < 300 ? null : `http_${answer.status}`
    } catch (error) {
      record.error = error instanceof WebhookPostError ? error.kind : 'network_error'
    }
    record.state = record.error === null ? 'done' : 'failed'
    if (record.error !== null) this.scheduleRetry(record)
    record.journal_id = this.journal.record({
      at: record.at,
      kind: 'webhook',
      method: 'POST',
      path: safePath(this.options.url),
      status: record.response?.status ?? 0,
      duration_ms: round(performance.now() - started),
      error_code: record.error === 'timeout' ? 'network_error' : record.error,
      account: record.account,
      key: null,
      error_message: `${record.event} attempt ${record.attempt} (${record.trigger}) · webhook-id ${record.webhook_id}${record.error === 'timeout' ? ' · timed out' : ''}${record.next_retry_at ? ` · next retry ${record.next_retry_at}` : ''}`,
      request_body: record.request.body,
      response_body: record.response?.body_excerpt ?? null,
      message_id: record.message_id ?? null,
    })
    this.attempts.touch(record.id)
  }

  private scheduleRetry(record: WebhookAttempt): void {
    const attempts = this.options.attempts ?? 5
    if (record.attempt >= attempts || this.stopped || record.trigger === 'replay') return
    const delay = (this.options.baseDelayMs ?? 500) * 2 ** (record.attempt - 1)
    record.next_retry_at = isoAt(this.now() + delay)
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.enqueue(record.webhook_id, record.event, record.request.body, record.attempt + 1, 'retry', aboutOf(record))
    }, delay)
    timer.unref?.()
    this.timers.add(timer)
  }

  /** Attempts sending, waiting for a slot, or waiting for their retry. */
  get pending(): number {
    return this.active + this.waiting.length + this.timers.size
  }

  private checkIdle(): void {
    if (this.pending > 0) return
    for (const resolve of this.idleWaiters) resolve()
    this.idleWaiters.clear()
  }

  /** Resolves when no attempt is in flight, queued or waiting for its retry (tests and shutdown use it). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.add(resolve))
  }

  /** Forgets every attempt (the `webhooks` reset scope); attempts in flight finish. */
  clear(): void {
    this.attempts.clear()
  }

  stop(): void {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    this.waiting.clear()
    this.checkIdle()
  }
}

/** Whose event an attempt carries: the account, and the message it is about. */
interface About {
  account: string
  message_id: string | null
}

function aboutOf(attempt: WebhookAttempt): About {
  return { account: attempt.account, message_id: attempt.message_id ?? null }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

function safePath(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.host}${parsed.pathname}`
  } catch {
    return url
  }
}
