import { HttpHandler, matchRequestUrl, type HttpRequestParsedResult, type Match, type ResponseResolutionContext } from 'msw'
import { ApiError, forcedError, isForceableStatus } from '../src/domain/errors.js'
import type { ApiKeyConfig } from '../src/domain/plans.js'
import { maskKey } from '../src/domain/plans.js'
import type { RateDecision } from '../src/domain/rate-limiter.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { validateBody } from '../src/domain/validation.js'
import type { BodySchema } from '../src/schemas/messages.js'
import type { z } from 'zod'

/** Largest accepted request body: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024

/** What a resolver gets once every guard has passed. */
export interface RouteContext<Body = undefined> {
  sandbox: SandboxState
  key: ApiKeyConfig
  url: URL
  params: Record<string, string>
  body: Body
  /** The body exactly as sent (parsed JSON), for the outbox. */
  raw: Record<string, unknown>
  /** Seconds until this key's window admits a request (for forced 429s). */
  retryAfter: () => number
}

/** A resolver answers with a status and a JSON body; errors are thrown as ApiError. */
export type RouteResult = { status?: number; body: unknown }

interface RouteSpec<S extends z.ZodObject | undefined> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path under the base URL, msw syntax (`/subscribers/:id`). */
  path: string
  /** Request body schema; omit for requests without a body. */
  body?: S extends z.ZodObject ? BodySchema<S> : undefined
  resolve: (ctx: RouteContext<S extends z.ZodObject ? z.infer<S> : undefined>) => RouteResult | Promise<RouteResult>
}

const JSON_CONTENT_TYPE = /^application\/json[ \t]*(?:;|$)/i
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i
const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Request bodies the standalone server has already read (capped at 1 MiB + 1 byte), by request.
 * The server hands msw a `Request` without a body stream plus the bytes here: a body stream
 * costs its creation, a tee when msw clones the request, and a read — ~50 µs a send — for bytes
 * that are in memory already. Without an entry (in-process), the guard reads the stream.
 */
const bufferedBodies = new WeakMap<Request, Uint8Array>()

/**
 * Gives the guard the body of a request the transport has read already (see the standalone
 * server; an empty array for a request without one). The request itself is then built without a
 * body, and the transport promises to write each answer from {@link answerTextOf}: the guard's
 * answers to such a request carry no body stream, which nobody would read.
 */
export function attachBufferedBody(request: Request, bytes: Uint8Array): void {
  bufferedBodies.set(request, bytes)
}

/** The JSON text of every answer the guard built, so a transport writes it without reading the Response stream back. */
const answerTexts = new WeakMap<Response, string>()

/**
 * The JSON text of an answer built by the sandbox's handlers, or undefined for any other
 * Response (then read its body as usual). Lets the standalone server skip reading back a
 * stream it would only turn into the same bytes.
 */
export function answerTextOf(response: Response): string | undefined {
  return answerTexts.get(response)
}

/**
 * The bytes a transport attached with {@link attachBufferedBody}, or undefined. The threaded
 * transport reads them in its HTTP worker to hand them to the main thread, where the sandbox is.
 */
export function bufferedBodyOf(request: Request): Uint8Array | undefined {
  return bufferedBodies.get(request)
}

/**
 * An answer whose JSON text is already made (the threaded transport's HTTP worker gets it from
 * the main thread): no body stream, and {@link answerTextOf} gives the text, as for the guard's own.
 */
export function textAnswer(status: number, text: string, headers: HeadersInit): Response {
  const response = new Response(null, { status, headers })
  answerTexts.set(response, text)
  return response
}

function json(status: number, body: unknown, headers: Record<string, string>, request?: Request): Response {
  headers['Content-Type'] = 'application/json'
  const text = JSON.stringify(body)
  // A transport that buffered the request writes the text itself (see attachBufferedBody).
  const response = new Response(request !== undefined && bufferedBodies.has(request) ? null : text, { status, headers })
  answerTexts.set(response, text)
  return response
}

function rateHeaders(decision: RateDecision, headers: Record<string, string>): void {
  headers['X-RateLimit-Limit'] = String(decision.limit)
  headers['X-RateLimit-Remaining'] = String(decision.remaining)
  headers['X-RateLimit-Reset'] = String(decision.reset)
}

function authenticate(sandbox: SandboxState, request: Request): { key: ApiKeyConfig; token: string } {
  const header = request.headers.get('authorization')
  if (header === null || header.trim() === '') {
    throw new ApiError(401, 'unauthorized', 'Missing Authorization header. Send `Authorization: Bearer <API_KEY>`; sandbox keys are listed by `sendbox keys` (defaults: test_starter, test_pro, test_enterprise).')
  }
  const match = BEARER.exec(header)
  if (!match) {
    throw new ApiError(401, 'unauthorized', 'Malformed Authorization header. Use the Bearer scheme: `Authorization: Bearer <API_KEY>`.')
  }
  const key = sandbox.authenticate(match[1])
  if (!key) {
    throw new ApiError(401, 'unauthorized', `Invalid API key "${maskKey(match[1])}". Use a key listed by \`sendbox keys\` (defaults: test_starter, test_pro, test_enterprise).`)
  }
  return { key, token: match[1] }
}

/** Parses `Prefer: code=500, delay=250` (Prism's convention). */
function parsePrefer(header: string | null): { code?: number; delay?: number } {
  if (header === null) return {}
  const out: { code?: number; delay?: number } = {}
  for (const part of header.split(/[,;]/)) {
    const [name, value] = part.split('=').map((s) => s.trim())
    if (name !== 'code' && name !== 'delay') continue
    if (!/^[0-9]{1,6}$/.test(value ?? '')) {
      throw new ApiError(400, 'invalid_parameter', `Invalid \`Prefer: ${part.trim()}\`: ${name} takes a whole number, like \`Prefer: ${name === 'code' ? 'code=500' : 'delay=250'}\`.`)
    }
    out[name] = Number(value)
  }
  if (out.code !== undefined && out.code >= 300 && !isForceableStatus(out.code)) {
    throw new ApiError(400, 'invalid_parameter', `\`Prefer: code=${out.code}\` is not a status this API answers with. Use 400, 401, 404, 429 or a 5xx.`)
  }
  if (out.delay !== undefined && out.delay > 60_000) {
    throw new ApiError(400, 'invalid_parameter', '`Prefer: delay` may be at most 60000 milliseconds.')
  }
  return out
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Reads the body of a POST/PUT and returns the JSON object, applying the contract's checks in order. */
async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge()
  const bytes = bufferedBodies.get(request) ?? (request.body === null ? new Uint8Array(0) : await readCapped(request.body))
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge()
  if (bytes.byteLength === 0) {
    throw new ApiError(400, 'invalid_json', 'A JSON body is required. Send a JSON object with `Content-Type: application/json`.')
  }
  const contentType = request.headers.get('content-type')
  if (contentType === null || !JSON_CONTENT_TYPE.test(contentType)) {
    throw new ApiError(400, 'invalid_content_type', `Requests with a body must carry \`Content-Type: application/json\`${contentType ? ` (got "${contentType.slice(0, 100)}")` : ''}.`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(decoder.decode(bytes))
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON. Check for trailing commas, unquoted keys or single quotes.')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, 'invalid_json', 'The body must be a JSON object, like {"to": "..."}.')
  }
  return parsed as Record<string, unknown>
}

/**
 * Reads a body stream up to one byte past the limit, then stops: enough to answer
 * `payload_too_large`, and an endless body (chunked, no Content-Length) is never buffered whole.
 * The stream is left uncancelled so a transport can still answer on the same connection.
 */
async function readCapped(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size <= MAX_BODY_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    reader.releaseLock()
  }
  if (chunks.length === 1) return chunks[0]
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

function tooLarge(): ApiError {
  return new ApiError(400, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB). Send less data per request.`)
}

/**
 * Runs one /v1 request through the guard chain — auth → rate limit → faults and `Prefer` →
 * route → body → resolver — and turns whatever was thrown into the wire error. Every answer is
 * journaled. `route` is undefined for the catch-all (unknown path or method → 404).
 */
async function runApiRequest<S extends z.ZodObject | undefined>(
  sandbox: SandboxState,
  request: Request,
  params: Record<string, string>,
  route: RouteSpec<S> | undefined,
): Promise<Response> {
  const started = performance.now()
  const arrivedAt = sandbox.now()
  const headers: Record<string, string> = {}
  const url = new URL(request.url)
  let status = 500
  let errorCode: string | null = null
  let key: ApiKeyConfig | undefined
  let token: string | undefined
  let delay = 0
  let response: Response
  try {
    await sandbox.ready
    ;({ key, token } = authenticate(sandbox, request))
    const decision = sandbox.limiter.take(key.key, arrivedAt)
    rateHeaders(decision, headers)
    if (!decision.allowed) {
      throw new ApiError(429, 'rate_limit_exceeded', `Rate limit of ${decision.limit} requests per minute exceeded for this key's plan. Retry after ${decision.retryAfter} s (see the Retry-After header).`, undefined, { 'Retry-After': String(decision.retryAfter) })
    }
    // For forced 429s: when the oldest counted request leaves this key's window.
    const retryAfter = () => Math.max(1, Math.ceil((decision.reset * 1000 - sandbox.now()) / 1000))
    const prefer = parsePrefer(request.headers.get('prefer'))
    delay = prefer.delay ?? 0
    const fault = sandbox.faults.match(request.method, url.pathname)
    if (fault) {
      delay = Math.max(delay, fault.delay_ms)
      throw forcedError(fault.status, fault.code ?? undefined, retryAfter)
    }
    if (prefer.code !== undefined && prefer.code >= 300) {
      throw forcedError(prefer.code, undefined, retryAfter)
    }
    if (!route) {
      throw new ApiError(404, 'not_found', `No endpoint ${request.method} ${url.pathname}. See the endpoint list in the sendbox README (GET /__sandbox/openapi.json for the full document).`)
    }
    let raw: Record<string, unknown> = {}
    let body: unknown = undefined
    if (route.body) {
      raw = await readJsonObject(request)
      body = validateBody(route.body, raw)
    }
    const result = await route.resolve({ sandbox, key, url, params, body: body as never, raw, retryAfter })
    status = result.status ?? 200
    response = json(status, result.body, headers, request)
  } catch (error) {
    const apiError = error instanceof ApiError
      ? error
      : new ApiError(500, 'internal_error', 'Unexpected sandbox failure. This is a bug in sendbox; the request journal has the details.')
    if (!(error instanceof ApiError)) reportUnexpected(error)
    status = apiError.status
    errorCode = apiError.code
    Object.assign(headers, apiError.headers)
    response = json(status, apiError.toBody(), headers, request)
  }
  if (delay > 0) await sleep(delay)
  sandbox.journal.record({
    at: new Date(arrivedAt).toISOString(),
    kind: 'api',
    method: request.method,
    path: url.pathname,
    status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    error_code: errorCode,
    account: key?.account ?? null,
    key: key ? maskKey(key.key) : token ? maskKey(token) : null,
  })
  return response
}

function reportUnexpected(error: unknown): void {
  // Unexpected failures are a sendbox bug: say so on stderr, never in the response body.
  console.error('[sendbox] unexpected error while handling a request:', error)
}

const NO_MATCH: HttpRequestParsedResult = Object.freeze({ match: Object.freeze({ matches: false, params: {} }), cookies: {} }) as HttpRequestParsedResult
/** Distinct URLs whose match a handler remembers; past it the memory starts over (bounded). */
const MATCH_CACHE_SIZE = 256

/** A custom msw predicate, as `http.all(predicate, resolver)` takes it. */
type RoutePredicate = (info: { request: Request }) => boolean

/**
 * An msw `HttpHandler` for a sandbox route whose `parse` is cheap. msw's own parse runs for
 * every handler in the list, for every request: a `new URL`, the cookie store's lookup and a
 * path-to-regexp compile — ~20 µs each, so a request to the sixth route paid for six. Here a
 * request whose method differs, or whose URL lies outside the path's static prefix, is rejected
 * at once (it could not match), and for the rest msw's own `matchRequestUrl` decides, its answer
 * remembered per URL (query and hash excluded, as msw matches without them). A custom predicate
 * runs only when `mayMatch` lets it. Nothing else changes: same info, same resolver, same
 * params; `cookies` is empty because the sandbox's resolvers never read them.
 */
class RouteHandler extends HttpHandler {
  private readonly mayMatch: (cleanUrl: string) => boolean
  private readonly matches = new Map<string, Match>()

  constructor(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'ALL',
    private readonly route: string | RoutePredicate,
    resolver: (info: { request: Request; params: Record<string, string> }) => Promise<Response>,
    mayMatch?: (cleanUrl: string) => boolean,
  ) {
    super(method === 'ALL' ? /.+/ : method, route, resolver as never)
    if (mayMatch) this.mayMatch = mayMatch
    else {
      const prefix = typeof route === 'string' ? literalPrefix(route) : ''
      this.mayMatch = (cleanUrl) => cleanUrl.toLowerCase().startsWith(prefix)
    }
  }

  override async parse(args: { request: Request; resolutionContext?: ResponseResolutionContext }): Promise<HttpRequestParsedResult> {
    const { request } = args
    const method = this.info.method
    if (typeof method === 'string' && method !== request.method.toUpperCase()) return NO_MATCH
    const url = request.url
    const end = endOfPath(url)
    const cleanUrl = end === url.length ? url : url.slice(0, end)
    if (!this.mayMatch(cleanUrl)) return NO_MATCH
    if (typeof this.route === 'function') {
      return { match: { matches: this.route({ request }), params: {} }, cookies: {} }
    }
    let match = this.matches.get(cleanUrl)
    if (match === undefined) {
      match = matchRequestUrl(new URL(url), this.route, args.resolutionContext?.baseUrl)
      if (this.matches.size >= MATCH_CACHE_SIZE) this.matches.clear()
      this.matches.set(cleanUrl, match)
    }
    return { match: { matches: match.matches, params: { ...match.params } }, cookies: {} }
  }
}

/** Index of the first `?` or `#` of a URL (its length when neither). */
function endOfPath(url: string): number {
  const query = url.indexOf('?')
  const hash = url.indexOf('#')
  if (query === -1) return hash === -1 ? url.length : hash
  return hash === -1 ? query : Math.min(query, hash)
}

/**
 * The literal start of an msw path, lower-cased (msw matches case-insensitively): everything
 * up to the first character path-to-regexp gives a meaning to, in the part after the origin
 * (the origin's own `:` of scheme and port are escaped by msw).
 */
function literalPrefix(pattern: string): string {
  const afterScheme = pattern.indexOf('://')
  const pathStart = afterScheme === -1 ? 0 : pattern.indexOf('/', afterScheme + 3)
  if (pathStart === -1) return pattern.toLowerCase()
  const special = /[:*(){}?+\\]/.exec(pattern.slice(pathStart))
  return (special ? pattern.slice(0, pathStart + special.index) : pattern).toLowerCase()
}

/** An msw handler for one /v1 route, behind the guard chain. */
export function apiRoute<S extends z.ZodObject | undefined = undefined>(sandbox: SandboxState, spec: RouteSpec<S>): HttpHandler {
  return new RouteHandler(spec.method, `${sandbox.baseUrl}${spec.path}`, ({ request, params }) =>
    runApiRequest(sandbox, request, params, spec),
  )
}

/** The catch-all under /v1: guards still run (so a keyless request is 401), then 404. */
export function apiNotFound(sandbox: SandboxState): HttpHandler[] {
  const resolver = ({ request }: { request: Request }) => runApiRequest(sandbox, request, {}, undefined)
  return [new RouteHandler('ALL', sandbox.baseUrl, resolver), new RouteHandler('ALL', `${sandbox.baseUrl}/*`, resolver)]
}

/** True when a path holds a percent-escape that does not decode (`/v1/%zz`): msw's path matcher throws on it. */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname)
    return false
  } catch {
    return true
  }
}

/**
 * /v1 paths msw cannot match: a malformed percent-escape makes its matcher throw, which answered
 * 500 (in-process with the stack trace in the body). Registered first; answers like any unknown
 * path, after the guards (401 without a key, else 404).
 */
export function apiMalformedPath(sandbox: SandboxState): HttpHandler {
  const base = new URL(sandbox.baseUrl)
  const prefix = base.pathname.replace(/\/+$/, '')
  const predicate = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    return url.origin === base.origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)) && hasMalformedEscape(url.pathname)
  }
  // Only a path with a `%` can hold a malformed escape: every other request skips the predicate.
  return new RouteHandler('ALL', predicate, ({ request }) => runApiRequest(sandbox, request, {}, undefined), (cleanUrl) => cleanUrl.includes('%'))
}

/** JSON answer for the sandbox controls (no rate headers, no journal). */
export function controlJson(status: number, body: unknown): Response {
  return json(status, body, {})
}

export { readJsonObject, json }
