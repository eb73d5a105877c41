/**
 * The request listener of the standalone server: node:http in, the sandbox's handlers (their
 * route table and guard chain, run by `createDispatcher` without msw's Fetch objects), node:http
 * out. See docs/decisions/standalone-transport.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { attachBufferedBody, RawHeaders, type Answer, type WireRequest } from '../http/body.js'
import { isControlPath, resolveBaseUrl } from '../http/base-url.js'
import { createDispatcher, type Dispatch } from '../http/index.js'
import type { Sandbox } from '../index.js'
import { closeAfterAnswer, corsHeaders, pipelinedAfterClose, refuse, sendJson, writeAnswer } from './answer-write.js'
import { announcesBody, MAX_BODY_PIECES, NO_BODY, readBody, type BodyRead } from './body-read.js'
import { boundedMemo } from '../domain/bounded-memo.js'
import { createOriginPolicy, type OriginPolicy } from './origin-policy.js'
import { refusedAtTheDoor, refusedControlChange, refusedFromHeaders, STATE_CHANGING } from './door-checks.js'

/**
 * The request the dispatcher gets from this transport. A class, not an object literal with a
 * `get signal()`: a literal's getter is a new closure per request, and V8 keeps each such accessor
 * in an old-generation AccessorPair. That pair held the getter's closure (the listener's scope:
 * `req`, `res`, the socket's buffers) alive through every young collection, so each request's
 * ~4 KB was promoted and a full collection ran every ~140 ms under load (docs/performance.md).
 */
class ListenerRequest implements WireRequest {
  /** Made when something reads the signal (most routes never do). */
  #controller: AbortController | undefined
  #gone = false

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: RawHeaders,
    readonly clientAddress?: string,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#gone) this.#controller.abort(goneReason())
    }
    return this.#controller.signal
  }

  /** The client went away before the answer was out: aborts the signal, now or when it is made. */
  abandon(): void {
    if (this.#gone) return
    this.#gone = true
    this.#controller?.abort(goneReason())
  }
}

/** A request target as the handlers see it: parsed on the sandbox's origin, its path, and its URL without the fragment. */
interface Target {
  url: URL
  pathname: string
  href: string
}
const MAX_CACHED_TARGETS = 512
const MAX_CACHED_PATH = 512

/**
 * The requests of a connection still being answered, for that connection's one pair of listeners:
 * the one request (the usual case), a set of them (pipelined), or null (none now). Not always a
 * set: a set's add and delete reallocated its table on every request, and the socket's set is
 * old, so each table was copied out of the young generation.
 */
const UNANSWERED = Symbol('sendbox.unanswered')
type WatchedSocket = Socket & { [UNANSWERED]?: ListenerRequest | Set<ListenerRequest> | null }

/**
 * Aborts the request's signal when its client goes away before the answer is out: the
 * connection closes, or the client says it will send nothing more (FIN). One `end` and one
 * `close` listener per connection for all its requests, not one per request: requests pipelined
 * on one connection stacked a listener each, and Node warned of a leak past ten
 * (MaxListenersExceededWarning, printed under the terminal UI). The listener calls
 * {@link answered} once it has written the answer (or given up on it).
 */
function watchClient(socket: WatchedSocket, request: ListenerRequest): void {
  const held = socket[UNANSWERED]
  if (held === undefined) {
    const abandonAll = () => {
      const pending = socket[UNANSWERED]
      socket[UNANSWERED] = null
      if (pending instanceof Set) for (const each of pending) each.abandon()
      else pending?.abandon()
    }
    socket.once('end', abandonAll)
    socket.once('close', abandonAll)
    socket[UNANSWERED] = request
  } else if (held === null) socket[UNANSWERED] = request
  else if (held instanceof Set) held.add(request)
  else socket[UNANSWERED] = new Set([held, request])
}

/** The request's answer is written (or abandoned): its client leaving no longer concerns it. */
function answered(socket: WatchedSocket, request: ListenerRequest): void {
  const held = socket[UNANSWERED]
  if (held === request) socket[UNANSWERED] = null
  else if (held instanceof Set && held.delete(request) && held.size === 0) socket[UNANSWERED] = null
}

function goneReason(): DOMException {
  return new DOMException('The client closed the connection before the answer was sent.', 'AbortError')
}

/** One line per request, for headless mode. */
export interface RequestLog {
  method: string
  path: string
  status: number
  ms: number
}

/** What the request listener needs besides the sandbox. */
export interface ListenerOptions {
  onRequest?: (entry: RequestLog) => void
  /** Origins and hosts allowed (default: loopback only). */
  policy?: OriginPolicy
  /** What answers the requests the transport lets through; default: the sandbox's own dispatcher (`createDispatcher`). */
  dispatch?: Dispatch
}

/** What the listener holds for every request: the policy, the dispatcher, and the sandbox's paths. */
interface ListenerContext {
  sandbox: Sandbox
  onRequest?: (entry: RequestLog) => void
  policy: OriginPolicy
  dispatch: Dispatch
  apiPrefix: string
  base: ReturnType<typeof resolveBaseUrl>
  targetOf: (path: string) => Target | undefined
}

/** One request in flight: node's request and response, its CORS headers, and how it went (for the log line and the cleanup after it). */
interface Exchange {
  req: IncomingMessage
  res: ServerResponse
  cors: Readonly<Record<string, string>>
  status: number
  aborted: boolean
  watched: ListenerRequest | undefined
}

/**
 * The request listener: no body parser, no framework. The transport checks what only it can see
 * (Host, Origin, the method, a form-style body sent to the controls), reads the bytes once
 * (capped, and only when the headers do not already doom the request) and hands them to the
 * guard beside the request; the answer's JSON text is written as the guard made it, any other
 * body streamed. The request carries an AbortSignal that fires when the client goes away before
 * the answer is out, so a long-poll can drop its waiter.
 */
export function createRequestListener(sandbox: Sandbox, options: ListenerOptions | ((entry: RequestLog) => void) = {}) {
  const {
    onRequest,
    policy = createOriginPolicy(),
    dispatch = createDispatcher(sandbox),
  } = typeof options === 'function' ? { onRequest: options } : options
  const origin = new URL(sandbox.baseUrl).origin
  // Request targets parsed once per distinct path (clients repeat theirs): a URL parse was ~1 %
  // of a request's CPU. Bounded (cleared when full; long paths not kept). The URL is shared by
  // every request to that path: nothing that is handed it may change it (handlers copy first).
  const targetOf = boundedMemo(
    MAX_CACHED_TARGETS,
    (path: string): Target | undefined => {
      let url: URL
      try {
        url = new URL(origin + path)
      } catch {
        return undefined
      }
      return { url, pathname: url.pathname, href: url.hash === '' ? url.href : url.href.slice(0, -url.hash.length) }
    },
    (path) => path.length <= MAX_CACHED_PATH,
  )
  const context: ListenerContext = {
    sandbox,
    onRequest,
    policy,
    dispatch,
    apiPrefix: new URL(sandbox.baseUrl).pathname.replace(/\/+$/, '') || '/',
    base: resolveBaseUrl(sandbox.baseUrl),
    targetOf,
  }
  // Not an async function: most answers are written before it returns, and an async function is
  // a promise per request even then. A promise only while the answer waits (the body, a handler);
  // whatever throws on the way rejects it, as it did the async function's.
  return (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    try {
      return listen(context, req, res)
    } catch (error) {
      return Promise.reject(error)
    }
  }
}

/** One request from its arrival to its log line (see {@link createRequestListener}). */
function listen(context: ListenerContext, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  if (pipelinedAfterClose(req)) return undefined
  const started = performance.now()
  const x: Exchange = {
    req,
    res,
    cors: corsHeaders(context.policy, req),
    status: 500,
    aborted: false,
    watched: undefined,
  }
  let pending: Promise<void> | undefined
  try {
    pending = answer(context, x)
  } catch (error) {
    failed(error, x)
  }
  if (pending === undefined) {
    logged(context, x, started)
    return undefined
  }
  return pending.then(
    () => logged(context, x, started),
    (error: unknown) => {
      failed(error, x)
      logged(context, x, started)
    },
  )
}

/** After the answer: the connection's watch ended, and the request's log line (not for a client that left). */
function logged(context: ListenerContext, x: Exchange, started: number): void {
  const { req } = x
  if (x.watched !== undefined) answered(req.socket, x.watched)
  if (!x.aborted)
    context.onRequest?.({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      status: x.status,
      ms: performance.now() - started,
    })
}

/**
 * Runs one request through the checks, the body read and the handlers, and writes the answer.
 * A promise only while something is awaited (the body, a handler that waits, a streamed answer):
 * each async layer a request went through was a promise, a frame and a microtask turn of its own.
 */
function answer(context: ListenerContext, x: Exchange): Promise<void> | undefined {
  const { req, res, cors } = x
  const method = req.method ?? 'GET'
  const path = req.url ?? '/'
  const refused = refusedAtTheDoor(context.policy, req, res, cors)
  if (refused !== undefined) {
    x.status = refused
    return undefined
  }
  // Parsed once, as the handlers see it: `/v1/%2e%2e/__sandbox/x` is `/__sandbox/x`, and
  // `//x/__sandbox/y` is a path under this origin (not a host), as `origin + path` makes it.
  const target = context.targetOf(path)
  const pathname = target?.pathname ?? path
  // Both forms of the controls (`/__sandbox/reset`, `/v1/__sandbox/reset`): the base-URL form
  // once skipped the origin check (a foreign page could reset) and lost its body (issue 27).
  const control = isControlPath(context.base, pathname)
  const changesControls = control && STATE_CHANGING.has(method)
  const foreign = changesControls ? refusedControlChange(context.policy, req, res, cors) : undefined
  if (foreign !== undefined) {
    x.status = foreign
    return undefined
  }
  // Without a body (GET, HEAD) nothing is awaited.
  if (method === 'GET' || method === 'HEAD') return dispatched(context, x, target, NO_BODY, false)
  // A request the guard will refuse from its headers (401) is answered without reading its body:
  // a keyless client cannot make the server buffer anything.
  if (announcesBody(req) && refusedFromHeaders(context.sandbox, context.apiPrefix, control, pathname, req))
    return dispatched(context, x, target, NO_BODY, true)
  return readBody(req).then((read) => bodyRead(context, x, target, read, changesControls))
}

/** A request whose body was read: refused when the read went wrong or the body does not fit, else dispatched. */
function bodyRead(
  context: ListenerContext,
  x: Exchange,
  target: Target | undefined,
  read: BodyRead,
  changesControls: boolean,
): Promise<void> | undefined {
  const { req, res, cors } = x
  if (read.aborted) {
    // The client went away mid-body (truncated, reset): nothing to answer, no sandbox bug.
    x.aborted = true
    res.destroy()
    return undefined
  }
  if (read.fragmented) {
    x.status = refuse(
      res,
      'invalid_request',
      `The body arrived in more than ${MAX_BODY_PIECES.toLocaleString('en-US')} pieces (${read.body.length.toLocaleString('en-US')} bytes so far); send it in larger chunks.`,
      cors,
      true,
    )
    return undefined
  }
  if (changesControls && read.body.length > 0 && req.headers['content-type'] === undefined) {
    x.status = refuse(
      res,
      'invalid_content_type',
      'Sandbox controls take JSON bodies only: send `Content-Type: application/json`.',
      cors,
      read.overflow,
    )
    return undefined
  }
  return dispatched(context, x, target, read.body, read.overflow)
}

/**
 * The request, its body read, through the handlers; its answer written (a promise only while one
 * is awaited). `closeAfter`: the body went over the cap or was skipped unread, so the connection
 * closes after the answer.
 */
function dispatched(
  context: ListenerContext,
  x: Exchange,
  target: Target | undefined,
  body: Uint8Array,
  closeAfter: boolean,
): Promise<void> | undefined {
  const { req, res } = x
  const method = req.method ?? 'GET'
  const path = req.url ?? '/'
  // Decided now, before the answer is awaited: a request pipelined behind this one may be
  // parsed meanwhile (its bytes were already here), and must find the connection closing.
  if (closeAfter) closeAfterAnswer(res, req.socket)
  // No Fetch objects: the dispatcher runs the handlers' guard chain on node:http's own data,
  // with the body beside the request (see attachBufferedBody). Parsed as a Request would.
  if (target === undefined) throw new TypeError(`Invalid URL: ${path.slice(0, 200)}`)
  const request = new ListenerRequest(method, target.href, new RawHeaders(req.rawHeaders), req.socket.remoteAddress)
  // Its signal aborts when the client is gone (the socket closes) or has said it will send
  // nothing more (FIN while the answer is pending): a long-poll drops its waiter. The answer
  // is still written, for a client that half-closed after its request and reads on.
  x.watched = request
  watchClient(req.socket, request)
  attachBufferedBody(request, body)
  const result = context.dispatch(request, target.url)
  return result instanceof Promise
    ? result.then((answer) => written(x, answer, closeAfter))
    : written(x, result, closeAfter)
}

/** The dispatcher's answer written (a promise while a streamed body is), or the 404 of a path no handler took. */
function written(x: Exchange, result: Answer | undefined, closeAfter: boolean): Promise<void> | undefined {
  const { req, res, cors } = x
  if (!result) {
    x.status = refuse(
      res,
      'not_found',
      `Nothing at ${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0].slice(0, 200)}. The API is under /v1 (for example POST /v1/email/send); sandbox controls are under /__sandbox.`,
      cors,
      closeAfter,
    )
    return undefined
  }
  x.status = result.status
  return writeAnswer(req, res, result, cors)
}

/** An error no check answered: the client gone mid-answer (nothing to say), else a 500 that names no internals. */
function failed(error: unknown, x: Exchange): void {
  const { req, res, cors } = x
  if (res.socket === null || res.socket.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
    // The client went away mid-answer: nothing to answer, no sandbox bug.
    x.aborted = true
    res.destroy()
    return
  }
  x.status = 500
  console.error(`[sendbox] unexpected server error on ${req.method ?? 'GET'} ${(req.url ?? '/').slice(0, 200)}:`, error)
  if (!res.headersSent)
    sendJson(
      res,
      500,
      {
        error: {
          code: 'internal_error',
          message: 'Unexpected sandbox failure. This is a bug in sendbox; stderr has the details.',
        },
      },
      { ...cors, Connection: 'close' },
    )
  else res.destroy()
}
