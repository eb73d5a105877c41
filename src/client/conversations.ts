/**
 * The client's side of replies, opt-outs, webhook attempts and subscribers: `POST
 * /__sandbox/inbound`, `GET /__sandbox/opt-outs`, `GET /__sandbox/webhooks` (and replay), and the
 * API's own `GET /v1/subscribers` with an API key. Types come from the contract's schemas.
 */
import type { z } from 'zod'
import type {
  inboundRequestSchema,
  inboundResultSchema,
  optOutSchema,
  webhookAttemptSchema,
} from '../contract/conversations.js'
import type { Subscriber } from '../contract/subscriber.js'
import type { ClientTransport } from './transport.js'

/** The body of `POST /__sandbox/inbound`: a person's reply (`channel`, `key` or `account`, `from`, `to?`, `text`). */
export type InboundInput = z.input<typeof inboundRequestSchema>
/** What a simulated reply did: the captured reply, the keyword's action, whether `from` is opted out now. */
export type InboundResult = z.infer<typeof inboundResultSchema>
/** A number opted out of an account. */
export type OptOut = z.infer<typeof optOutSchema>
/** One webhook attempt, as the inspector keeps it. */
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>
export type { Subscriber }

/** The controls of replies, opt-outs, webhooks and subscribers. */
export interface ConversationControls {
  /** Simulates a reply from a phone (`POST /__sandbox/inbound`): STOP opts `from` out, START back in. */
  inbound(input: InboundInput): Promise<InboundResult>
  optOuts: {
    /** Numbers opted out (of one account when given), every page. */
    list(options?: { account?: string }): Promise<OptOut[]>
  }
  webhooks: {
    /** Webhook attempts, newest first (at most `limit`, default 100). */
    list(options?: { account?: string; limit?: number }): Promise<WebhookAttempt[]>
    /** Sends an attempt's event again with the same `webhook-id`; undefined when there is no such attempt. */
    replay(id: string): Promise<WebhookAttempt | undefined>
  }
  subscribers: {
    /** The subscribers of `key`'s account, oldest first (at most `limit`, default 100), as `GET /v1/subscribers` answers with that key. */
    list(key: string, options?: { limit?: number }): Promise<{ data: Subscriber[]; total: number }>
    /** One subscriber of `key`'s account, or undefined (`GET /v1/subscribers/{id}`). */
    get(key: string, id: string): Promise<Subscriber | undefined>
  }
}

const PAGE = 100
type Page<T> = { data: T[]; pagination?: { pages: number; total?: number } }

/** Every page of a list (or the newest `limit` items), for lists that are paginated or not. */
async function pages<T>(
  http: ClientTransport,
  path: (page: number) => string,
  limit = Infinity,
  headers?: Record<string, string>,
): Promise<{ data: T[]; total: number }> {
  const data: T[] = []
  let total = 0
  for (let page = 1; data.length < limit; page++) {
    const answer = await http.json<Page<T>>(path(page), { headers })
    data.push(...answer.data)
    total = answer.pagination?.total ?? data.length
    if (!answer.pagination || page >= answer.pagination.pages) break
  }
  return { data: data.slice(0, limit), total }
}

/** A query string of the given values (undefined ones left out). */
function query(values: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value))
  return params.toString()
}

/** The conversation controls over `http`. */
export function conversationControls(http: ClientTransport): ConversationControls {
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
  return {
    inbound: (input) => http.json('/__sandbox/inbound', { method: 'POST', body: input }),
    optOuts: {
      list: async ({ account } = {}) =>
        (await pages<OptOut>(http, (page) => `/__sandbox/opt-outs?${query({ account, page, limit: PAGE })}`)).data,
    },
    webhooks: {
      list: async ({ account, limit = PAGE } = {}) =>
        (
          await pages<WebhookAttempt>(
            http,
            (page) => `/__sandbox/webhooks?${query({ account, page, limit: PAGE })}`,
            limit,
          )
        ).data,
      replay: (id) =>
        http.json<WebhookAttempt>(`/__sandbox/webhooks/${encodeURIComponent(id)}/replay`, {
          method: 'POST',
          missing: true,
        }),
    },
    subscribers: {
      list: (key, { limit = PAGE } = {}) =>
        pages<Subscriber>(http, (page) => `/v1/subscribers?${query({ page, limit: PAGE })}`, limit, bearer(key)),
      get: (key, id) =>
        http.json<Subscriber>(`/v1/subscribers/${encodeURIComponent(id)}`, { missing: true, headers: bearer(key) }),
    },
  }
}
