/**
 * `sendbox/client`: the sandbox controls of a running sendbox, over HTTP (`fetch` only, so it
 * runs in Node ≥ 20, browsers, Deno, Bun and workers alike).
 *
 * @example
 * import { createSandboxClient, WaitTimeoutError } from 'sendbox/client'
 * const client = createSandboxClient({ url: 'http://127.0.0.1:4010' })
 * const email = await client.outbox.waitFor({ channel: 'email', to: 'ana@example.com' }, { timeout: 10_000 })
 * console.log(email.links[0], email.codes[0])
 *
 * Every type here is inferred from the zod schemas the server answers with (src/contract), so
 * the client and the server cannot drift apart.
 */
import { WAIT_TIMEOUT_MS } from '../contract/constants.js'
import type { z } from 'zod'
import type { OutboxFilter } from '../domain/outbox-filter.js'
import type { FaultSpec } from '../domain/faults.js'
import { WaitTimeoutError } from '../domain/wait-timeout-error.js'
import type { capturedMessageSchema, capturedMessageSummarySchema } from '../contract/captured-message.js'
import type {
  clockStateSchema,
  faultSchema,
  healthSchema,
  resetResultSchema,
  ResetScope,
} from '../contract/controls.js'
import type { journalEntrySchema } from '../contract/journal.js'
import { ClientTransport, SandboxClientError, type ClientOptions } from './transport.js'
import { conversationControls, type ConversationControls } from './conversations.js'

export { WaitTimeoutError, SandboxClientError }
export type { ClientOptions, OutboxFilter, FaultSpec, ResetScope }
export type {
  ConversationControls,
  InboundInput,
  InboundResult,
  OptOut,
  Subscriber,
  WebhookAttempt,
} from './conversations.js'

/** A whole captured message (`GET /__sandbox/messages/{id}`): `text`, `links`, `codes`, `status_history`, the request body. */
export type CapturedMessage = z.infer<typeof capturedMessageSchema>
/** A message's check report (`GET /__sandbox/messages/{id}/checks`). */
export type { CheckReport, Check } from '../contract/checks.js'
import type { CheckReport } from '../contract/checks.js'
/** A listed message (`GET /__sandbox/messages`): no request body or email HTML, text cut to 2000 characters. */
export type CapturedMessageSummary = z.infer<typeof capturedMessageSummarySchema>
/** A fault in force. */
export type Fault = z.infer<typeof faultSchema>
/** Sandbox time. */
export type ClockState = z.infer<typeof clockStateSchema>
/** One request of the journal. */
export type JournalEntry = z.infer<typeof journalEntrySchema>
/** `GET /__sandbox/health`. */
export type Health = z.infer<typeof healthSchema>
/** What `reset()` answers. */
export type ResetResult = z.infer<typeof resetResultSchema>

/** Options of {@link SandboxClient.outbox}`.waitFor`. */
export interface ClientWaitOptions {
  /** Milliseconds to wait in all; default 5000 (as in-process). Longer than 60 s is fine: the client asks again. */
  timeout?: number
  /** Only messages created at or after it: Unix milliseconds or a Date (default: any time). */
  since?: number | Date
  /** Stops waiting: the promise rejects with the signal's reason and the request is aborted. */
  signal?: AbortSignal
}

/** The longest one `GET /__sandbox/messages/wait` may wait (the server's cap). */
export const SERVER_WAIT_CAP_MS = 60_000
const PAGE = 100

/** The sandbox controls of a running sendbox. Build one with {@link createSandboxClient}. */
export interface SandboxClient extends ConversationControls {
  /** The sandbox's origin, as given (no trailing slash). */
  readonly url: string
  /** `GET /__sandbox/health`. */
  health(): Promise<Health>
  outbox: {
    /** Captured messages matching the filter, newest first, as the list shows them (every page, or the newest `limit`). */
    list(filter?: OutboxFilter, options?: { limit?: number }): Promise<CapturedMessageSummary[]>
    /** One whole message, or undefined when there is none with this id. */
    get(id: string): Promise<CapturedMessage | undefined>
    /**
     * The newest matching message created at or after `since`, or the next one to arrive.
     * Rejects with {@link WaitTimeoutError} after `timeout` ms; its message is the server's (the
     * filter and the nearest misses), the same text as the in-process `outbox.waitFor`.
     */
    waitFor(filter?: OutboxFilter, options?: ClientWaitOptions): Promise<CapturedMessage>
    /** Deletes one message; false when there was none with this id. */
    delete(id: string): Promise<boolean>
    /** Empties the outbox. */
    clear(): Promise<void>
  }
  messages: {
    /**
     * The check report of a captured message (`GET /__sandbox/messages/{id}/checks`; docs/checks.md):
     * computed on first ask, then kept. `links: 'live'` requests each link; `refresh` computes it again.
     * Rejects with a SandboxClientError (404 `not_found`) for an unknown id.
     * @example const report = await client.messages.checks(id); report.checks.filter((c) => c.severity === 'error')
     */
    checks(id: string, options?: { links?: 'live' | 'static'; refresh?: boolean }): Promise<CheckReport>
  }
  requests: {
    /** The newest requests of the journal (at most `limit`, default 100), newest first. */
    list(options?: { account?: string; limit?: number }): Promise<JournalEntry[]>
  }
  faults: {
    /** Arms a fault (the body of `POST /__sandbox/faults`). */
    add(spec: FaultSpec): Promise<Fault>
    list(): Promise<Fault[]>
    clear(): Promise<void>
  }
  clock: {
    /** Moves sandbox time forward: lifecycle steps come due, rate-limit windows slide. */
    advance(ms: number): Promise<ClockState>
    /** Stops sandbox time (`freeze(false)` lets it run again). */
    freeze(frozen?: boolean): Promise<ClockState>
    /** Back to the real clock, running. */
    reset(): Promise<ClockState>
    state(): Promise<ClockState>
  }
  /** Back to the seeded state, or only the part named by `scope`. */
  reset(scope?: ResetScope): Promise<ResetResult>
}

/**
 * A client of the sandbox controls at `url` (a running sandbox's origin, like
 * `http://127.0.0.1:4010`). `adminToken` is sent as `X-Sendbox-Admin-Token` when the sandbox
 * was started with `--admin-token`. `teamToken` is sent as `Authorization: Bearer …`: a
 * `--team-token` of a shared sandbox, which sees (and resets) its own accounts only.
 * The first call checks that `url` is a sendbox (`GET /__sandbox/health`) and fails with one line
 * naming the URL and what answered instead.
 */
export function createSandboxClient(options: ClientOptions): SandboxClient {
  const http = new ClientTransport(options)
  const json = http.json.bind(http)
  const post = <T>(path: string, body?: unknown) => json<T>(path, { method: 'POST', body })
  return {
    url: http.origin,
    health: () => json<Health>('/__sandbox/health'),
    outbox: {
      list: async (filter = {}, { limit = Infinity } = {}) => {
        const all: CapturedMessageSummary[] = []
        for (let page = 1; all.length < limit; page++) {
          const answer = await json<{ data: CapturedMessageSummary[]; pagination: { pages: number } }>(
            `/__sandbox/messages?${query({ ...filter, page, limit: PAGE })}`,
          )
          all.push(...answer.data)
          if (page >= answer.pagination.pages) break
        }
        return all.slice(0, limit)
      },
      get: async (id) => json<CapturedMessage>(`/__sandbox/messages/${encodeURIComponent(id)}`, { missing: true }),
      waitFor: (filter = {}, wait = {}) => waitFor(http, filter, wait, options.longPollMs ?? SERVER_WAIT_CAP_MS),
      delete: async (id) =>
        (await json(`/__sandbox/messages/${encodeURIComponent(id)}`, { method: 'DELETE', missing: true })) !==
        undefined,
      clear: async () => void (await json('/__sandbox/messages', { method: 'DELETE' })),
    },
    messages: {
      checks: (id, { links, refresh } = {}) =>
        json<CheckReport>(
          `/__sandbox/messages/${encodeURIComponent(id)}/checks?${query({ links, refresh: refresh ? 1 : undefined })}`,
        ),
    },
    requests: {
      list: async ({ account, limit = PAGE } = {}) => {
        const entries: JournalEntry[] = []
        for (let page = 1; entries.length < limit; page++) {
          const answer = await json<{ data: JournalEntry[]; pagination: { pages: number } }>(
            `/__sandbox/requests?${query({ account, page, limit: PAGE })}`,
          )
          entries.push(...answer.data)
          if (page >= answer.pagination.pages) break
        }
        return entries.slice(0, limit)
      },
    },
    faults: {
      add: (spec) => post('/__sandbox/faults', spec),
      list: async () => (await json<{ data: Fault[] }>('/__sandbox/faults')).data,
      clear: async () => void (await json('/__sandbox/faults', { method: 'DELETE' })),
    },
    clock: {
      advance: (ms) => post('/__sandbox/clock', { advance_ms: ms }),
      freeze: (frozen = true) => post('/__sandbox/clock', { freeze: frozen }),
      reset: () => post('/__sandbox/clock', { reset: true }),
      state: () => json('/__sandbox/clock'),
    },
    reset: (scope) => post(`/__sandbox/reset${scope ? `?scope=${encodeURIComponent(scope)}` : ''}`),
    ...conversationControls(http),
  }
}

/** A query string of the given values (undefined ones left out). */
function query(values: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value))
  return params.toString()
}

/**
 * Long polls `GET /__sandbox/messages/wait`, at most {@link SERVER_WAIT_CAP_MS} a request, until
 * a message comes or the caller's timeout has passed; then the server's 408 message (with the
 * whole timeout in it) becomes a {@link WaitTimeoutError}.
 */
async function waitFor(
  http: ClientTransport,
  filter: OutboxFilter,
  options: ClientWaitOptions,
  longPollMs: number,
): Promise<CapturedMessage> {
  const timeout = options.timeout ?? WAIT_TIMEOUT_MS.caller
  if (!Number.isFinite(timeout) || timeout < 0)
    throw new TypeError(`waitFor: timeout must be a number of milliseconds ≥ 0 (got ${String(options.timeout)}).`)
  const since = options.since instanceof Date ? options.since.getTime() : options.since
  const deadline = Date.now() + timeout
  for (;;) {
    const slice = Math.min(longPollMs, Math.max(0, Math.ceil(deadline - Date.now())))
    const path = `/__sandbox/messages/wait?${query({ ...filter, since, timeout: slice })}`
    try {
      return await http.json<CapturedMessage>(path, { signal: options.signal })
    } catch (error) {
      if (!(error instanceof SandboxClientError) || error.status !== 408) throw error
      if (Date.now() < deadline - 5) continue
      const message = error.message.replace(` in ${slice} ms; `, ` in ${timeout} ms; `)
      throw new WaitTimeoutError(message, filter, timeout, [])
    }
  }
}
