import type { HttpHandler } from 'msw'
import { createHandlers } from './http/index.js'
import { SandboxState, type SandboxOptions } from './domain/sandbox.js'
import { postWebhookNode } from './transports/webhook-post.js'
import { openSqliteStore } from './storage/sqlite-store.js'
import { workerHtmlChecker } from './transports/check-worker-pool.js'

/**
 * One sandbox: the whole API's state plus the MSW request handlers that serve it. Plug
 * `handlers` into `setupServer` (Node) or `setupWorker` (browser); the standalone server
 * serves the same object over HTTP.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSandbox } from 'sendbox'
 *
 * const sandbox = createSandbox({ baseUrl: 'https://api.example.com/v1' })
 * const server = setupServer(...sandbox.handlers)
 * server.listen()
 * // ... your client sends an email ...
 * const email = await sandbox.outbox.waitFor({ channel: 'email', to: 'ana@example.com' })
 * email.email.subject; email.links[0]; email.codes[0]
 */
export class Sandbox extends SandboxState {
  /** MSW request handlers for `<baseUrl>/...` and `<origin>/__sandbox/...`. */
  readonly handlers: HttpHandler[]

  constructor(options: SandboxOptions = {}) {
    // Webhooks post through node:http on Node (a socket per attempt, closed at its deadline).
    const webhook = typeof options.webhook === 'string' ? { url: options.webhook } : options.webhook
    // `data`: the SQLite store (node:sqlite is loaded here, and only here).
    const store = options.store ?? (options.data !== undefined ? openSqliteStore(options.data) : undefined)
    // Email HTML checks run on a worker thread (a 1 MiB email must not stall the server's answers).
    super({
      htmlChecker: workerHtmlChecker,
      ...options,
      store,
      ...(webhook ? { webhook: { post: postWebhookNode, ...webhook } } : {}),
    })
    this.handlers = createHandlers(this)
  }
}

/**
 * Creates a sandbox. Two sandboxes share nothing; `await sandbox.reset()` returns one to its
 * seeded state. In-process the default is no seeded subscribers (tests start empty).
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new Sandbox(options)
}

export type { SandboxOptions, FixtureData, ResetScope } from './domain/sandbox.js'
export type {
  CapturedMessage,
  OutboxFilter,
  Channel,
  MessageStatus,
  StatusChange,
  MessageTransition,
  MessageOf,
  WaitOptions,
} from './domain/outbox.js'
export type { EmailMessage, SmsMessage, WhatsappMessage, CapturedMessageSummary } from './contract/captured-message.js'
export { WaitTimeoutError } from './domain/outbox.js'
export { FILTER_KEYS } from './domain/outbox-filter.js'
export { CHANNEL_DESCRIPTORS, summaryOf, summarize } from './domain/channels/index.js'
export { findCodes, linksInText } from './domain/extract.js'
export { SandboxClock, ClockNotControllableError, type ClockState } from './domain/clock.js'
export type { SandboxEvent } from './domain/events.js'
export type { JournalEntry } from './domain/journal.js'
export type { Fault, FaultSpec } from './domain/faults.js'
export type { Plan, ApiKeyConfig } from './domain/plans.js'
export type { Subscriber } from './contract/subscriber.js'
export type { WebhookOptions, WebhookEvent } from './domain/webhooks.js'
export { ApiError } from './domain/errors.js'
export { MAGIC_RECIPIENTS } from './domain/magic-recipients.js'
export { signWebhook } from './domain/webhooks.js'
export { encodeSms } from './domain/sms-encoding.js'
export { DEFAULT_API_KEYS, DEFAULT_LIMITS, PLAN_NAMES } from './domain/plans.js'
export { VERSION } from './version.js'
export { StoreFileError } from './storage/sqlite-store.js'
