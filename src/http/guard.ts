import { GUESS_WINDOW_MS, guessingClient, MAX_WRONG_SECRETS } from '../domain/guess-limiter.js'
import { ApiError, forcedError, retryAfterHeader } from '../domain/errors.js'
import type { ApiKeyConfig } from '../domain/plans.js'
import { displayKey, maskKey } from '../domain/plans.js'
import { journalApiRequest, type JournaledRun, type JournalTrace } from './api-journal.js'
import { retryAfterSeconds, type RateDecision } from '../domain/rate-limiter.js'
import { fromZodError, toApiError } from './api-errors.js'

import type { SandboxState } from '../domain/sandbox.js'
import { ADMIN_VIEWER } from '../domain/team-tokens.js'
import { validateBody } from '../domain/validation.js'
import { bearerToken } from './credentials.js'
import { boundedMemo } from '../domain/bounded-memo.js'
import {
  announcesBody,
  checkIgnoredBody,
  jsonAnswer,
  jsonTextAnswer,
  bodyBytesAtHand,
  isResponse,
  parseJsonObject,
  readBodyBytes,
  readBodyStream,
  type Answer,
  type WireRequest,
} from './body.js'
import { parsePrefer } from './prefer.js'
import { countRequest } from './metrics.js'
import { isBodySchema, type Route, type RouteResult } from './route.js'

// The standalone server imports the transport side channel from here.
export { answerTextOf, attachBufferedBody, MAX_BODY_BYTES } from './body.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The `X-RateLimit-*` headers, named in lower case as both transports write every name (then not copied again). */
function rateHeaders(decision: RateDecision, headers: Record<string, string>): void {
  headers['x-ratelimit-limit'] = String(decision.limit)
  headers['x-ratelimit-remaining'] = String(decision.remaining)
  headers['x-ratelimit-reset'] = String(decision.reset)
}

function authenticate(sandbox: SandboxState, request: WireRequest): { key: ApiKeyConfig; token: string } {
  const header = request.headers.get('authorization')
  if (header === null || header.trim() === '') {
    throw new ApiError(
      'unauthorized',
      `Missing Authorization header. Send \`Authorization: Bearer <API_KEY>\`; ${keysHint(sandbox)}`,
    )
  }
  const token = bearerToken(header)
  if (token === undefined) {
    throw new ApiError(
      'unauthorized',
      'Malformed Authorization header. Use the Bearer scheme: `Authorization: Bearer <API_KEY>`.',
    )
  }
  const client = guessingClient(request.headers.get('origin'), request.clientAddress)
  refuseWhileGuessing(sandbox, client)
  const key = sandbox.authenticate(token)
  if (!key) {
    sandbox.guesses.miss(client, sandbox.now(), token)
    throw new ApiError('unauthorized', `Invalid API key "${maskKey(token)}". ${keysHint(sandbox)}`)
  }
  return { key, token }
}

/** At most this many keys are named in a 401's hint. */
const HINTED_KEYS = 5

/**
 * Where a 401 points for the keys: the configured ones (test keys in full, others masked), and
 * `sendbox keys` only on a server the CLI started (in-process there is no CLI: the keys are the
 * `apiKeys` option's). A transport that knows the client's address is the standalone server.
 */
function keysHint(sandbox: SandboxState): string {
  const keys = sandbox.keys.map((k) => displayKey(k.key))
  const named =
    keys.slice(0, HINTED_KEYS).join(', ') + (keys.length > HINTED_KEYS ? ` and ${keys.length - HINTED_KEYS} more` : '')
  // One text on every transport (the parity suites compare answers byte for byte): the keys themselves,
  // then where they are set; never only a command an in-process test cannot run (issue 33).
  return `the sandbox's configured keys (the \`apiKeys\` option, or \`--api-key\` on the command line) are ${named}.`
}

/** 429 for a client that presented too many wrong keys or tokens lately, whatever it presents now. */
export function refuseWhileGuessing(sandbox: SandboxState, client: string | undefined): void {
  const wait = sandbox.guesses.lockedFor(client, sandbox.now())
  if (wait > 0) {
    throw new ApiError(
      'rate_limit_exceeded',
      `Too many wrong API keys or admin tokens from this ${client === 'local web pages' ? "machine's web pages" : 'address'} (${MAX_WRONG_SECRETS} different ones in ${GUESS_WINDOW_MS / 1000} s): every key and token is refused for ${wait} s more. Retry after ${wait} s (see the Retry-After header).`,
      undefined,
      retryAfterHeader(wait),
    )
  }
}

/** Query strings remembered per route, and the longest one remembered. */
const MAX_PARSED_QUERIES = 256
const MAX_PARSED_QUERY_CHARS = 512
/** Each route's parse of a query string (see {@link parseQuery}). */
const queryParsers = new WeakMap<Route, (search: string) => Readonly<Record<string, unknown>>>()

/**
 * The declared query parameters, each checked by its schema: the first failure is 400 naming it.
 * A query string a route accepted is remembered (frozen: no handler changes its query): the
 * schemas are pure functions of the string, clients repeat theirs (`?page=1&limit=20`), and two
 * zod parses were the list's largest cost after the socket write.
 */
export function parseQuery(route: Route, url: URL): Readonly<Record<string, unknown>> {
  let parse = queryParsers.get(route)
  if (parse === undefined) {
    parse = boundedMemo(
      MAX_PARSED_QUERIES,
      (search: string) => Object.freeze(parseQueryString(route, new URLSearchParams(search))),
      (search) => search.length <= MAX_PARSED_QUERY_CHARS,
    )
    queryParsers.set(route, parse)
  }
  return parse(url.search)
}

function parseQueryString(route: Route, params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(route.query ?? {})) {
    const raw = params.get(name) ?? undefined
    const result = schema.safeParse(raw)
    if (!result.success) {
      throw new ApiError('invalid_parameter', result.error.issues[0].message, name)
    }
    out[name] = result.data
  }
  return out
}

/** Promises of `sandbox.ready` seen settled: a request need not wait a microtask turn for them again. */
const settled = new WeakSet<Promise<void>>()

/**
 * Undefined once the sandbox is ready (seeded, its tools loaded), else what to await first.
 * `sandbox.ready` is replaced by a reset of the subscribers, so the promise is what is remembered.
 */
function whenReady(sandbox: SandboxState): Promise<void> | undefined {
  const ready = sandbox.ready
  if (settled.has(ready)) return undefined
  return ready.then(() => {
    settled.add(ready)
  })
}

/** What a route without a body gets: no body, `{}` as the raw one. */
const NO_BODY = Object.freeze({ body: undefined, raw: Object.freeze({}) as Record<string, unknown> })

/**
 * Reads (API: validates in the contract's order) the body of a route that takes one. Synchronous
 * for a route without one: an `await` costs a turn of the microtask queue, and most API reads
 * have no body (the controls, off the hot path, simply await it).
 */
export function readRouteBody(route: Route, request: WireRequest, trace: JournalTrace): ReadBody | Promise<ReadBody> {
  if (!route.body) {
    checkIgnoredBody(request)
    return NO_BODY
  }
  const spec = route.body
  // A body the transport buffered is parsed at once; a Fetch Request's stream is read first.
  const bytes = bodyBytesAtHand(request)
  if (bytes !== undefined) return parsedBody(spec, request, trace, bytes)
  return readBodyStream(request).then((read) => parsedBody(spec, request, trace, read))
}

/** A request's body: as the route's schema made it, and the JSON object as sent. */
type ReadBody = { body: unknown; raw: Record<string, unknown> }

function parsedBody(
  spec: NonNullable<Route['body']>,
  request: WireRequest,
  trace: JournalTrace,
  bytes: Uint8Array,
): ReadBody {
  trace.requestBody = bytes
  const raw = parseJsonObject(request, bytes, trace)
  if (isBodySchema(spec)) return { body: validateBody(spec, raw), raw }
  const result = spec.safeParse(raw)
  if (!result.success) throw fromZodError(result.error, raw)
  return { body: result.data, raw }
}

/** The wire answer of a resolver's result; `status` is the route's declared success status. */
export function answer(
  result: RouteResult,
  headers: Record<string, string>,
  request: WireRequest,
  status: number,
): Answer {
  if (isResponse(result)) {
    for (const [name, value] of Object.entries(headers)) if (!result.headers.has(name)) result.headers.set(name, value)
    if (request.method === 'HEAD' && result.body !== null) {
      void result.body.cancel().catch(() => {})
      return new Response(null, { status: result.status, headers: result.headers })
    }
    return result
  }
  const merged = result.headers === undefined ? headers : { ...headers, ...result.headers }
  if ('empty' in result) return { status, headers: merged, text: null }
  if ('json' in result)
    return jsonTextAnswer(result.status ?? status, request.method === 'HEAD' ? null : result.json, merged)
  return jsonAnswer(result.status ?? status, result.body, merged, request)
}

/** One API request on its way through the guard chain: what its journal entry is made of, and what its answer needs besides. */
interface ApiRun extends JournaledRun {
  params: Record<string, string>
  route: Route | undefined
  started: number
  headers: Record<string, string>
  delay: number
}

/**
 * Runs one API request through the guard chain — auth → rate limit → faults and `Prefer` →
 * route → body → resolver — and turns whatever was thrown into the wire error. Every answer is
 * journaled. `route` is undefined for the catch-all (unknown path or method → 404). `url` is
 * `request.url` parsed (the transport has parsed it already).
 *
 * The answer comes back synchronously when nothing on the way had to wait (a body the transport
 * buffered, a resolver with nothing pending, no store, no delay): each `await` of an async layer
 * was a promise, a microtask turn and a suspended frame per request (issue 37: the send's
 * allocations were ~1.5 KB over 7e48468's, mostly here).
 */
export function runApiRequest(
  sandbox: SandboxState,
  request: WireRequest,
  url: URL,
  params: Record<string, string>,
  route: Route | undefined,
): Answer | Promise<Answer> {
  const run: ApiRun = {
    sandbox,
    request,
    url,
    params,
    route,
    started: performance.now(),
    arrivedAt: sandbox.now(),
    headers: {},
    trace: {},
    delay: 0,
    messageId: null,
  }
  let response: Answer | Promise<Answer>
  try {
    response = guarded(run)
  } catch (error) {
    return afterDelay(run, refusal(run, error))
  }
  if (response instanceof Promise)
    return response.then(
      (answer) => afterDelay(run, { response: answer }),
      (error: unknown) => afterDelay(run, refusal(run, error)),
    )
  return afterDelay(run, { response })
}

/** A request's answer, and the error it answers with when refused. */
interface Outcome {
  response: Answer
  apiError?: ApiError
}

/** The wire error for whatever the guard chain threw. */
function refusal(run: ApiRun, error: unknown): Outcome {
  const apiError = toApiError(error, run.request)
  return {
    apiError,
    response: jsonAnswer(apiError.status, apiError.toBody(), { ...run.headers, ...apiError.headers }, run.request),
  }
}

/** The answer after the delay a `Prefer: delay=` or a fault asked for (none: at once), counted and journaled. */
function afterDelay(run: ApiRun, outcome: Outcome): Answer | Promise<Answer> {
  if (run.delay > 0) return sleep(run.delay).then(() => finished(run, outcome))
  return finished(run, outcome)
}

function finished(run: ApiRun, { response, apiError }: Outcome): Answer {
  const { sandbox, request } = run
  countRequest(sandbox, run.route?.operationId, response.status)
  // No valid key, from a web page: journaled at most once a second per origin (a foreign page must not evict the journal).
  const origin = run.key === undefined ? request.headers.get('origin') : null
  const note = origin === null ? '' : sandbox.journal.admitAnonymous(origin, run.arrivedAt)
  if (note !== undefined) journalApiRequest(run, response.status, apiError, note, performance.now() - run.started)
  return response
}

/**
 * The rate limit, then an armed fault or a `Prefer: code=`: throws the refusal (or, for a fault on a
 * request with a body, rejects with it once the body is read for the journal); else what a forced
 * 429 would say. Synchronous on the way through: the send path awaits nothing here.
 */
function limitedAndForced(run: ApiRun, key: ApiKeyConfig): (() => number) | Promise<never> {
  const { sandbox, request, url } = run
  const decision = sandbox.limiter.take(key.key, run.arrivedAt)
  rateHeaders(decision, run.headers)
  if (!decision.allowed) {
    throw new ApiError(
      'rate_limit_exceeded',
      `Rate limit of ${decision.limit} requests per minute exceeded for this key's plan. Retry after ${decision.retryAfter} s (see the Retry-After header).`,
      undefined,
      retryAfterHeader(decision.retryAfter),
    )
  }
  // For forced 429s: what a real 429 would say now (the oldest counted request's exit, exactly).
  const retryAfter = () => retryAfterSeconds(decision.freeAt, sandbox.now())
  const prefer = parsePrefer(request.headers.get('prefer'))
  run.delay = prefer.delay ?? 0
  const fault = sandbox.faults.match(request.method, url.pathname, key.account)
  if (fault) {
    run.delay = Math.max(run.delay, fault.delay_ms)
    run.faultId = fault.id
    // The refused request's body is kept in the journal all the same (QA reads what was refused).
    const refusal = () => forcedError(fault.status, fault.code ?? undefined, retryAfter)
    // (In-process a Fetch Request may carry a body stream without a Content-Length.)
    if (!announcesBody(request) && !(request as { body?: unknown }).body) throw refusal()
    return readBodyBytes(request)
      .catch(() => undefined)
      .then((body) => {
        run.trace.requestBody = body
        throw refusal()
      })
  }
  if (prefer.code !== undefined && prefer.code >= 300) throw forcedError(prefer.code, undefined, retryAfter)
  return retryAfter
}

/**
 * The guard chain and the resolver; throws an ApiError (or anything: a 500) to refuse, or gives a
 * promise that rejects with one when it had to wait on the way.
 */
function guarded(run: ApiRun): Answer | Promise<Answer> {
  const { sandbox, request, url, route } = run
  const starting = whenReady(sandbox)
  if (starting) return starting.then(() => guarded(run))
  const { key, token } = authenticate(sandbox, request)
  run.key = key
  run.token = token
  const retryAfter = limitedAndForced(run, key)
  if (typeof retryAfter !== 'function') return retryAfter
  if (!route) {
    throw new ApiError(
      'not_found',
      `No endpoint ${request.method} ${url.pathname}. Paths match exactly (case and trailing slash count). See the endpoint list in sendbox's docs/api.md (GET /__sandbox/openapi.json for the full document).`,
    )
  }
  const query = parseQuery(route, url)
  const read = readRouteBody(route, request, run.trace)
  const resolve = ({ body, raw }: ReadBody) => {
    const result = route.resolve({
      sandbox,
      request,
      key,
      url,
      params: run.params,
      query,
      body,
      raw,
      viewer: ADMIN_VIEWER,
      retryAfter,
    })
    return result instanceof Promise
      ? result.then((resolved) => stored(run, route, resolved))
      : stored(run, route, result)
  }
  return read instanceof Promise ? read.then(resolve) : resolve(read)
}

/** The resolver's result as the wire answer, once on disk (with --data a write is answered when stored: one transaction per turn). */
function stored(run: ApiRun, route: Route, resolved: RouteResult): Answer | Promise<Answer> {
  const { sandbox, request } = run
  // An accepted send names its captured message, so the journal entry links to it.
  if ('body' in resolved && (resolved.body as { message_id?: unknown } | null)?.message_id !== undefined)
    run.messageId = String((resolved.body as { message_id: unknown }).message_id)
  const wire = () => answer(resolved, run.headers, request, route.status ?? 200)
  return sandbox.store && request.method !== 'GET' ? sandbox.store.settle().then(wire) : wire()
}
