import { defaultOf, rangeOf } from '../contract/settings.js'
import { seededSubscribers } from './seeded-subscribers.js'
import { RESET_SCOPES, type Health, type ResetScope } from '../contract/controls.js'
import { VERSION } from '../version.js'
import { assertAdminToken } from './admin-token.js'
import { checkTeamTokens, type TeamToken } from './team-tokens.js'
import { SandboxClock } from './clock.js'
import { SandboxEvents } from './events.js'
import { loadHtmlTools } from './extract.js'
import { Faults } from './faults.js'
import { Journal } from './journal.js'
import { Outbox } from './outbox.js'
import {
  DEFAULT_LIMITS,
  defaultAccountFor,
  processAccountSalt,
  seedNameFor,
  PLAN_NAMES,
  resolveApiKeys,
  type ApiKeyConfig,
  type Plan,
} from './plans.js'
import { seededRandom } from './random.js'
import { GuessLimiter } from './guess-limiter.js'
import { RateLimiter } from './rate-limiter.js'
import { SubscriberStore, type SubscriberPatch } from './subscribers.js'
import { WebhookSender, type WebhookOptions } from './webhooks.js'
import { templateBookOf, type TemplateBook, type TemplatesOption } from './templates.js'
import { OptOutStore } from './opt-outs.js'
import { receiveInbound, type InboundInput, type InboundResult } from './inbound.js'
import {
  createCheckReports,
  reportFor,
  type CheckReport,
  type CheckReports,
  type CheckSandboxOptions,
  type ChecksRequest,
} from './checks/settings.js'
import type { CapturedMessage } from '../contract/captured-message.js'

/** Subscribers to load instead of (or on top of) seeded ones, per account. */
export interface FixtureData {
  subscribers: Record<string, Array<SubscriberPatch & { id?: string; created_at?: string }>>
}

/**
 * Where a sandbox keeps its state across restarts (`--data`: the SQLite store in src/storage). The
 * domain only knows this port; the adapter reads the parts' change logs and writes them.
 */
export interface SandboxStore {
  /** The file, for the health answer and the start line. */
  readonly path: string
  /** The salt of default account ids, kept in the store so a key stays one account across restarts. */
  readonly accountSalt: string
  /** Fills a fresh sandbox with what the store kept and starts keeping its changes; false for a new store (the sandbox then seeds it). */
  open(sandbox: SandboxState): Promise<boolean>
  /**
   * Resolves once every change made so far is written. Rejects with an ApiError (500
   * `internal_error`) when the write failed: the messages captured and subscribers written in that
   * batch were undone, so memory and store agree.
   */
  settle(): Promise<void>
  /** Writes what is pending and closes the store. */
  close(): void
  /** Transactions written and failed, and the seconds they took (for the metrics). */
  readonly writes?: { ok: number; failed: number; seconds: number }
}

/** Options of {@link createSandboxState} and `createSandbox`. */
export interface SandboxOptions extends CheckSandboxOptions {
  /**
   * Keep subscribers, messages, the journal, faults, opt-outs, webhook attempts and the clock in
   * this SQLite file across restarts (Node ≥ 22.13: `node:sqlite`). Loaded only when given.
   */
  data?: string
  /** A store already opened (what `data` makes); for transports that open it themselves. */
  store?: SandboxStore
  /** Where the API answers; default `https://api.sendbox.test/v1`. */
  baseUrl?: string
  /** Keys and their plans: `{ key: 'pro' }`, `{ key: 'pro:shared_account' }` or `['key:pro:account']`. Replace the defaults. */
  apiKeys?: Record<string, Plan | `${Plan}:${string}`> | readonly string[]
  /** Requests per minute per plan. */
  limits?: Partial<Record<Plan, number>>
  /** Faker seed for fixtures and the fault RNG; default 1. */
  seed?: number
  /** Seeded subscribers per account at start and at every reset; default 0 in-process. */
  subscribers?: number
  /** Subscribers loaded at start and every reset (after the seeded ones). */
  fixtures?: FixtureData
  /**
   * Your own clock for limits, timestamps and the delivery lifecycle. Default: the sandbox clock
   * (`sandbox.clock`: the real time read at each call, which `advance`/`freeze` can move).
   */
  now?: () => number
  /** Milliseconds per lifecycle step of a captured message; default 1000, 0 = instant. */
  deliveryMs?: number
  /** Outbox cap; default 10,000. */
  maxMessages?: number
  /** Outbox byte budget (oldest evicted first); default 256 MiB. */
  maxOutboxBytes?: number
  /**
   * Salt of the account ids of keys configured without an account (`acct_…`): random per process
   * unless given. A persistent store passes the one it kept, so a key stays one account.
   */
  accountSalt?: string
  /** Journal cap; default 1,000. */
  maxRequests?: number
  /** Long-polls (`waitFor` over HTTP, `/__sandbox/messages/wait`) held at once; default 1,000. Past it: 503. */
  maxWaiters?: number
  /** Event-stream clients (`/__sandbox/events`) at once; default 1,000. Past it: 503. */
  maxEventClients?: number
  /** Lifecycle webhooks: a URL, or URL plus secret and retry policy. */
  webhook?: string | WebhookOptions
  /**
   * WhatsApp templates: every WhatsApp send is checked against them and captured as the recipient
   * reads it. A file path, `{ templates: [...] }`, or the list. Default: none (any name accepted).
   */
  templates?: TemplatesOption
  /** When set, /__sandbox controls require `Authorization: Bearer <adminToken>` (or `X-Sendbox-Admin-Token`). */
  adminToken?: string
  /** Scoped viewer tokens: each opens /__sandbox for its accounts only (see `--team-token`). */
  teamTokens?: readonly TeamToken[]
}

// The scopes are part of the contract (the reset control's schema lists them): declared there.
export { RESET_SCOPES, type ResetScope } from '../contract/controls.js'

export { ACCOUNT_RESET_SCOPES, type AccountResetScope } from '../contract/constants.js'
import { ACCOUNT_RESET_SCOPES, type AccountResetScope } from '../contract/constants.js'

/** Throws a TypeError naming the valid scopes for anything else (a typo must not reset nothing). */
export function checkResetScope(scope: unknown): asserts scope is ResetScope | undefined {
  if (scope !== undefined && !(RESET_SCOPES as readonly unknown[]).includes(scope)) {
    throw new TypeError(
      `reset: unknown scope ${JSON.stringify(scope)}. Use one of ${RESET_SCOPES.join(', ')}, or no scope to reset everything.`,
    )
  }
}

export const DEFAULT_BASE_URL = 'https://api.sendbox.test/v1'

/** The `ready` of a sandbox with nothing to seed: settled once, so a request never waits a turn for it. */
const NOTHING_TO_SEED: Promise<void> = Promise.resolve()

/** Default caps on what clients may hold open (issue 27, N2/N4): documented in the README's limits. */
export const DEFAULT_MAX_WAITERS = defaultOf('max-waiters')
export const DEFAULT_MAX_EVENT_CLIENTS = defaultOf('max-event-clients')

/** A whole-number option within its setting's range, or its default; a RangeError naming it otherwise. */
function wholeOption(name: string, setting: 'max-waiters' | 'max-event-clients', value: number | undefined): number {
  if (value === undefined) return defaultOf(setting)
  const [min, max] = rangeOf(setting)
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be a whole number from ${min} to ${max} (got ${String(value)}).`)
  return value
}

/**
 * All state of one sandbox: accounts and limits, subscribers, outbox, journal, faults. Plain
 * TypeScript: transports (MSW handlers, the HTTP server) and the terminal UI sit around it.
 * Two instances share nothing.
 */
export class SandboxState {
  readonly version = VERSION
  readonly baseUrl: string
  /** Sandbox time in Unix milliseconds (your `now` option, else {@link clock}). */
  readonly now: () => number
  /** Sandbox time you can move: `advance(ms)`, `freeze(true)`, `reset()`. Throws when you passed your own `now`. */
  readonly clock: SandboxClock
  /** Captures, lifecycle steps, journal entries and resets, as they happen. */
  readonly events: SandboxEvents
  readonly keys: readonly ApiKeyConfig[]
  readonly limits: Record<Plan, number>
  readonly limiter: RateLimiter
  /** Wrong keys and admin tokens per client (issue 27, N11). */
  readonly guesses = new GuessLimiter()
  readonly subscribers: SubscriberStore
  readonly outbox: Outbox
  readonly journal: Journal
  readonly faults: Faults
  readonly webhooks: WebhookSender | undefined
  /** The configured WhatsApp templates, or undefined (then any template name is accepted). */
  readonly templates: TemplateBook | undefined
  /** Numbers that replied STOP, per account. */
  readonly optOuts = new OptOutStore()
  readonly seed: number
  readonly adminToken: string | undefined
  readonly teamTokens: readonly TeamToken[]
  /** The salt of this sandbox's default account ids (see {@link SandboxOptions.accountSalt}). */
  readonly accountSalt: string
  /** Long-polls held at once over HTTP (`/__sandbox/messages/wait`); past it, 503. */
  readonly maxWaiters: number
  /** Event-stream clients (`/__sandbox/events`) at once; past it, 503. */
  readonly maxEventClients: number
  /** Where the state is kept across restarts, if anywhere. */
  readonly store: SandboxStore | undefined
  /** Each message's check report, computed when first asked for and kept (see {@link checks}). */
  readonly checkReports: CheckReports
  /** Resolves once the seeded state is in place; handlers wait for it. */
  ready: Promise<void>
  private readonly byKey: Map<string, ApiKeyConfig>
  private readonly options: SandboxOptions

  constructor(options: SandboxOptions = {}) {
    this.options = options
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
    this.clock = new SandboxClock(options.now)
    this.now = this.clock.now
    this.events = new SandboxEvents()
    this.seed = options.seed ?? defaultOf('seed')
    assertAdminToken(options.adminToken)
    this.adminToken = options.adminToken
    checkTeamTokens(options.teamTokens ?? [], options.adminToken)
    this.teamTokens = (options.teamTokens ?? []).map((t) =>
      Object.freeze({ name: t.name, token: t.token, accounts: Object.freeze([...t.accounts]) }),
    )
    this.maxWaiters = wholeOption('maxWaiters', 'max-waiters', options.maxWaiters)
    this.maxEventClients = wholeOption('maxEventClients', 'max-event-clients', options.maxEventClients)
    if (
      options.accountSalt !== undefined &&
      (typeof options.accountSalt !== 'string' || options.accountSalt.length < 16)
    ) {
      throw new TypeError(
        'accountSalt must be a string of at least 16 characters (keep the one a previous run used, or leave it out for a random one).',
      )
    }
    this.store = options.store
    this.accountSalt = options.accountSalt ?? options.store?.accountSalt ?? processAccountSalt()
    this.keys = resolveApiKeys(options.apiKeys, this.accountSalt)
    this.byKey = new Map(this.keys.map((k) => [k.key, k]))
    // A team token naming an account no key has would open an inbox that stays empty: say so at once
    // (an account of a key configured without one is salted per process: name accounts explicitly).
    const known = new Set(this.keys.map((k) => k.account))
    for (const team of this.teamTokens) {
      const unknown = team.accounts.find((account) => !known.has(account))
      if (unknown !== undefined)
        throw new TypeError(
          `team token "${team.name}": no API key has the account "${unknown}" (accounts: ${[...known].join(', ')}); give keys their account with --api-key KEY:PLAN:ACCOUNT`,
        )
    }
    this.limits = { ...DEFAULT_LIMITS, ...options.limits }
    for (const [plan, limit] of Object.entries(this.limits)) {
      const [min, max] = rangeOf('limit')
      if (!Number.isInteger(limit) || limit < min || limit > max) {
        throw new Error(`limit for plan ${plan} must be a whole number from ${min} to ${max}, got ${limit}`)
      }
    }
    this.limiter = new RateLimiter((key) => this.limits[this.byKey.get(key)!.plan])
    this.subscribers = new SubscriberStore(this.now)
    this.outbox = new Outbox(this.now, {
      capacity: options.maxMessages,
      maxBytes: options.maxOutboxBytes,
      deliveryMs: options.deliveryMs,
      events: this.events,
    })
    this.journal = new Journal(options.maxRequests ?? defaultOf('max-requests'), this.events)
    // A moved clock makes lifecycle steps due at once (webhooks fire for them, in order).
    this.clock.onMove(() => this.outbox.clockMoved())
    this.faults = new Faults(seededRandom(this.seed))
    this.checkReports = createCheckReports(this.outbox, this.now, options)
    const webhook = typeof options.webhook === 'string' ? { url: options.webhook } : options.webhook
    this.templates = templateBookOf(options.templates)
    if (webhook) {
      const sender = new WebhookSender({ seed: this.seed, ...webhook }, this.journal, this.now)
      this.webhooks = sender
      this.outbox.onTransition((transition) => sender.send(transition))
    }
    // Every request awaits `ready`: the seeded state, or what a store kept (`reset` seeds as ever) plus the HTML tools its
    // emails are derived with on first read. Otherwise the first email send loads those (the email channel's `prepare`).
    const filled = this.store?.open(this).then((kept) => (kept ? undefined : this.seedSubscribers()))
    this.ready = filled ? Promise.all([filled, loadHtmlTools()]).then(() => undefined) : this.seeded()
  }

  /** Seeds the subscribers (`subscribers`, fixtures); with none to seed, a settled promise and no work. */
  private seeded(): Promise<void> {
    const none =
      (this.options.subscribers ?? 0) <= 0 && Object.keys(this.options.fixtures?.subscribers ?? {}).length === 0
    return none ? NOTHING_TO_SEED : this.seedSubscribers()
  }

  /** The account of a configured key (throws for an unknown key): handy in tests and fixtures. */
  accountOf(key: string): string {
    const config = this.byKey.get(key)
    if (!config) throw new Error(`"${key}" is not a configured API key`)
    return config.account
  }

  /** The key config for a bearer token, or undefined when it is not a configured key. */
  authenticate(token: string): ApiKeyConfig | undefined {
    return this.byKey.get(token)
  }

  /** Requests per minute for a key. */
  limitOf(key: ApiKeyConfig): number {
    return this.limits[key.plan]
  }

  /** Distinct accounts, in key order. */
  accounts(): string[] {
    return [...new Set(this.keys.map((k) => k.account))]
  }

  /** Keys with plan, limit and live use of the window (for `sendbox keys` and the UI header). */
  keyUsage(): Array<ApiKeyConfig & { planName: string; limit: number; used: number }> {
    const now = this.now()
    return this.keys.map((k) => ({
      ...k,
      planName: PLAN_NAMES[k.plan],
      limit: this.limitOf(k),
      used: this.limiter.used(k.key, now),
    }))
  }

  private async seedSubscribers(only?: ReadonlySet<string>): Promise<void> {
    const count = this.options.subscribers ?? 0
    // An account named by its keys seeds from its name; a salted default one from its key's
    // unsalted name, so `--seed` gives the same subscribers whatever this process's salt.
    const seedNames = new Map<string, string>()
    for (const k of this.keys) {
      if (!seedNames.has(k.account))
        seedNames.set(
          k.account,
          k.account === defaultAccountFor(k.key, this.accountSalt) ? seedNameFor(k.key) : k.account,
        )
    }
    for (const account of this.accounts()) {
      if (only !== undefined && !only.has(account)) continue
      for (const s of await seededSubscribers(this.seed, count, seedNames.get(account) ?? account)) {
        await this.subscribers.create(account, s.input, { id: s.id, created_at: s.created_at })
      }
    }
    const fixtures = this.options.fixtures?.subscribers ?? {}
    for (const [owner, list] of Object.entries(fixtures)) {
      // Fixtures name an account, or a key (whose account they then fill).
      const account = this.byKey.get(owner)?.account ?? owner
      for (const { id, created_at, ...input } of list) {
        await this.subscribers.create(account, input, { id, created_at })
      }
    }
  }

  /** Back to the seeded state, whole or one part. */
  async reset(scope?: ResetScope): Promise<void> {
    checkResetScope(scope)
    await this.ready
    if (!scope || scope === 'subscribers') {
      this.subscribers.clear()
      this.ready = this.seeded()
      await this.ready
    }
    if (!scope || scope === 'messages') (this.outbox.clear(), this.checkReports.clear())
    if (!scope || scope === 'limits') this.limiter.reset()
    if (!scope || scope === 'faults') this.faults.clear()
    if (!scope || scope === 'journal') this.journal.clear()
    if (!scope || scope === 'opt_outs') this.optOuts.clear()
    if (!scope || scope === 'webhooks') this.webhooks?.clear()
    this.events.emit({ type: 'reset', scope: scope ?? 'all' })
  }

  /**
   * Back to the seeded state for some accounts only (what a team token's `POST /__sandbox/reset`
   * does): their captured messages, subscribers (seeded again), faults and opt-outs, or the part
   * named by `scope`. The journal, rate-limit windows and webhook attempts are shared: only
   * {@link reset} touches them.
   */
  async resetAccounts(accounts: ReadonlySet<string>, scope?: AccountResetScope): Promise<void> {
    if (scope !== undefined && !(ACCOUNT_RESET_SCOPES as readonly unknown[]).includes(scope)) {
      throw new TypeError(
        `resetAccounts: unknown scope ${JSON.stringify(scope)}. Use one of ${ACCOUNT_RESET_SCOPES.join(', ')}, or no scope for all of them.`,
      )
    }
    await this.ready
    if (!scope || scope === 'messages') {
      for (const message of this.outbox.list().filter((m) => accounts.has(m.account)))
        this.outbox.delete(message.message_id)
    }
    if (!scope || scope === 'subscribers') {
      for (const account of accounts) this.subscribers.clearAccount(account)
      await this.seedSubscribers(accounts)
    }
    if (!scope || scope === 'faults') this.faults.clearAccounts(accounts)
    if (!scope || scope === 'opt_outs') {
      for (const entry of this.optOuts.list().filter((e) => accounts.has(e.account)))
        this.optOuts.remove(entry.account, entry.number)
    }
    this.events.emit({ type: 'reset', scope: scope ?? 'all', accounts: [...accounts] })
  }

  /**
   * Simulates a person's reply: captured with `direction: "inbound"`, posted as a
   * `message.received` webhook; STOP-family keywords opt `from` out of the account, START-family
   * ones opt it back in. Throws an ApiError (400 naming the field) for an unknown key or account.
   *
   * @example
   * sandbox.inbound({ channel: 'sms', key: 'test_pro', from: '+14155550123', text: 'STOP' })
   */
  inbound(input: InboundInput): InboundResult {
    return receiveInbound(
      { keys: this.keys, outbox: this.outbox, optOuts: this.optOuts, webhooks: this.webhooks, now: this.now },
      input,
    )
  }

  /** A message's check report (docs/checks.md), kept once computed; a 404 ApiError for an unknown id. `await sandbox.checks(message, { links: 'live' })` */
  checks(messageOrId: CapturedMessage | string, request: ChecksRequest = {}): Promise<CheckReport> {
    return reportFor(this.outbox, this.checkReports, messageOrId, request)
  }

  /** `GET /__sandbox/health`. */
  health(): Health {
    return {
      ok: true as const,
      version: this.version,
      messages: this.outbox.size,
      messages_evicted: this.outbox.evicted,
      max_messages: this.outbox.capacity,
      outbox_bytes: this.outbox.bytes,
      max_outbox_bytes: this.outbox.maxBytes,
      waiters: this.outbox.waiting,
      event_clients: this.events.size,
      requests: this.journal.size,
      faults: this.faults.size,
      data: this.store?.path ?? null,
    }
  }

  /** Run at {@link dispose}: what the protocols hold for this sandbox and release with it (the screenshot route's browser). */
  readonly disposers = new Set<() => unknown>()
  /** Stops timers and webhook retries, and runs the {@link disposers}. */
  dispose(): void {
    for (const release of this.disposers)
      void Promise.resolve()
        .then(release)
        .catch(() => undefined)
    this.outbox.dispose()
    this.webhooks?.stop()
    this.store?.close()
  }
}

/** Builds the state of one sandbox. */
export function createSandboxState(options?: SandboxOptions): SandboxState {
  return new SandboxState(options)
}
