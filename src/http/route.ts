import type { z } from 'zod'
import type { ApiKeyConfig } from '../domain/plans.js'
import type { SandboxState } from '../domain/sandbox.js'
import type { Viewer } from '../domain/team-tokens.js'
import type { BodySchema } from '../contract/messages.js'
import type { ErrorCodeName } from '../contract/error.js'
import type { WireRequest } from './body.js'

/** Where a route lives: under the API base URL, or under `/__sandbox` (sandbox-only controls). */
export type RouteScope = 'api' | 'sandbox'

/** HTTP methods a route may have (GET routes answer HEAD too, without a body). */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** Query parameters: each one's schema over the raw string the URL carries (absent: undefined). */
export type QuerySchemas = Record<string, z.ZodType<unknown, string | undefined>>

/** What a resolver gets once every guard has passed. */
export interface RouteContext<Body = undefined, Query = Record<string, unknown>> {
  sandbox: SandboxState
  request: WireRequest
  url: URL
  params: Record<string, string>
  /** Declared query parameters, validated and converted by their schemas. */
  query: Query
  body: Body
  /** The body exactly as sent (parsed JSON), for the outbox; `{}` without a body. */
  raw: Record<string, unknown>
  /** API routes: the caller's key. */
  key: ApiKeyConfig
  /** Controls: who asks — the admin (every account) or a team token (its accounts only). API routes: the admin. */
  viewer: Viewer
  /** API routes: seconds until this key's window admits a request (what a real 429 would say now). */
  retryAfter: () => number
}

/**
 * A resolver answers with a status and a JSON body (errors are thrown as ApiError), the same as
 * JSON text it already has (`json`: a cached serialisation, written as it is), or with a
 * Response of its own (HTML, a stream).
 */
export type RouteResult =
  | { status?: number; body: unknown; headers?: Record<string, string> }
  | { status?: number; json: string; headers?: Record<string, string> }
  | { empty: true; headers?: Record<string, string> }
  | Response

/** The success statuses a route may declare (errors are thrown as ApiError, and listed in `answers`). */
export type SuccessStatus = 200 | 201 | 202 | 204

/**
 * How the success answer is documented: a JSON schema, no body (`empty`: a 204), HTML, a PNG
 * image, or a Server-Sent Events stream.
 */
export type RouteResponse =
  z.ZodType | { empty: true } | { html: true } | { png: true } | { text: string } | { eventStream: z.ZodType }

type Headers = Record<string, string>

/**
 * What a resolver of a route whose response is `R` may answer: a body of R's shape (or its JSON
 * text, already serialised), nothing for an `empty` route, or a Response of its own (HTML, a
 * stream, or an answer it builds itself).
 */
export type ResultFor<R> = R extends z.ZodType
  ? { body: z.input<R>; headers?: Headers } | { json: string; headers?: Headers } | Response
  : R extends { empty: true }
    ? { empty: true; headers?: Headers }
    : Response

/** The status a route's success carries: 204 for an `empty` route, else 200, 201 or 202. */
type StatusFor<R> = R extends { empty: true } ? { status: 204 } : { status?: Exclude<SuccessStatus, 204> }

/** An extra documented answer of a route (for example 408 `wait_timeout`). */
export interface RouteAnswer {
  /** The error code; its status is the contract's (`ERROR_CODES`). */
  code: ErrorCodeName
  description: string
}

/**
 * One endpoint: everything the MSW handlers and the OpenAPI document need. `handlers/index.ts`
 * turns each into an msw handler behind the guard chain; `src/http/openapi.ts` turns each into an
 * operation. A new endpoint is one of these plus its resolver.
 */
export interface Route<Body = any, Query = any> {
  scope: RouteScope
  method: RouteMethod
  /** OpenAPI path template: relative to the base URL (`/subscribers/{id}`) for `api`, `/__sandbox/...` for `sandbox`. */
  path: string
  operationId: string
  /** Document tag; `sandbox` for every control. */
  tag: string
  summary: string
  description?: string
  query?: QuerySchemas
  /** API routes: a {@link BodySchema} (the contract's error order). Controls: a plain zod schema. */
  body?: BodySchema | z.ZodType
  response: RouteResponse
  /** The success status (default 200); 204 exactly when `response` is `{ empty: true }`. */
  status?: SuccessStatus
  /** Documented answers besides the success and the scope's usual errors. */
  answers?: RouteAnswer[]
  /** Controls only: served without the admin token (holds no state: the OpenAPI document). */
  public?: boolean
  /** Controls only: a probe (`livez`, `readyz`), answered before the sandbox is ready and without a token. */
  probe?: boolean
  /** Controls only: a message-scoped `?token=` (see `outbox.previewToken`) lets it through the admin guard. */
  previewToken?: boolean
  /**
   * Controls only: open to team tokens (`--team-token`), whose requests the resolver scopes to
   * `viewer`'s accounts. Without it a team token is answered 403 `forbidden` (global state: the
   * clock, the journal's reset, MCP).
   */
  team?: boolean
  resolve: (ctx: RouteContext<Body, Query>) => RouteResult | Promise<RouteResult>
}

type Infer<S> = S extends BodySchema<infer T> ? z.infer<T> : S extends z.ZodType ? z.output<S> : undefined
type InferQuery<Q> = Q extends QuerySchemas ? { [K in keyof Q]: z.output<Q[K]> } : Record<string, never>

/** A route as declared: body and query typed by their schemas, the resolver's answer by the response. */
type Declared<B, Q, R extends RouteResponse, Omitted extends keyof Route> = Omit<
  Route<Infer<B>, InferQuery<Q>>,
  Omitted | 'body' | 'query' | 'response' | 'status' | 'resolve'
> &
  StatusFor<R> & {
    body?: B
    query?: Q
    response: R
    resolve: (ctx: RouteContext<Infer<B>, InferQuery<Q>>) => ResultFor<R> | Promise<ResultFor<R>>
  }

/** Declares an API route (under the base URL): the body type follows its schema, the answer its response. */
export function apiRoute<
  const B extends BodySchema | undefined = undefined,
  const Q extends QuerySchemas | undefined = undefined,
  const R extends RouteResponse = RouteResponse,
>(route: Declared<B, Q, R, 'scope'>): Route {
  return { scope: 'api', ...route } as unknown as Route
}

/** Declares a sandbox control (under `/__sandbox`, tag `sandbox`): the body type follows its schema, the answer its response. */
export function controlRoute<
  const B extends z.ZodType | undefined = undefined,
  const Q extends QuerySchemas | undefined = undefined,
  const R extends RouteResponse = RouteResponse,
>(route: Declared<B, Q, R, 'scope' | 'tag'>): Route {
  return { scope: 'sandbox', tag: 'sandbox', ...route } as unknown as Route
}

/** True for an API route's body spec (a {@link BodySchema}), false for a plain zod schema. */
export function isBodySchema(body: BodySchema | z.ZodType): body is BodySchema {
  return 'formatCodes' in body && 'schema' in body
}
