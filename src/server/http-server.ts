import { gzipAnswer } from './compress.js'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { sameSecret } from '../domain/admin-token.js'
import { teamViewer } from '../domain/team-tokens.js'
import { attachBufferedBody, bodyOf, MAX_BODY_BYTES, forEachAnswerHeader, RawHeaders, type Answer, type WireRequest } from '../http/body.js'
import { isControlPath, resolveBaseUrl } from '../http/base-url.js'
import { bearerToken, offeredAdminToken } from '../http/credentials.js'
import { createDispatcher, type Dispatch } from '../http/index.js'
import type { Sandbox } from '../index.js'
import { boundedMemo } from './bounded-memo.js'
import { ALLOWED_METHODS, ALLOWED_REQUEST_HEADERS, createOriginPolicy, EXPOSED_HEADERS, type OriginPolicy } from './origin-policy.js'

/** The body of a request that has none. */
const NO_BODY = new Uint8Array(0)

/** Bytes the server reads of a body before it stops: one more than the API accepts. */
const BODY_READ_CAP = MAX_BODY_BYTES + 1

/** First allocation of a body buffer when the length is not announced; doubled as bytes arrive. */
const BODY_FIRST_ALLOCATION = 16 * 1024

/**
 * Pieces (socket reads or chunks of a chunked body) a body may arrive in. Each piece costs the
 * event loop ~3 µs whatever its size, so 1 MiB sent as 1-byte chunks held it ~3 s; 65,536 pieces
 * is 16 bytes a piece on average at the 1 MiB cap, far below what any client sends.
 */
const MAX_BODY_PIECES = 65_536

/** Methods a Fetch `Request` cannot carry (fetch forbids them); answered 400 by the transport. */
const FORBIDDEN_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT'])

/** Methods that change sandbox state: Origin and Content-Type checks under `/__sandbox`. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH'])

const JSON_CONTENT_TYPE = /^application\/json[ \t]*(?:;|$)/i

/** One line per request, for headless mode. */
export interface RequestLog {
  method: string
  path: string
  status: number
  ms: number
}

export interface ServerOptions {
  port?: number
  host?: string
  /** Called after each answered request (headless log lines). */
  onRequest?: (entry: RequestLog) => void
  /** Connection timeouts; the defaults suit a local tool, tests lower them to see slow clients cut off. */
  timeouts?: ServerTimeouts
  /**
   * Origins granted CORS (and allowed to change `/__sandbox` state) besides loopback ones, like
   * `http://app.test:3000`; `*` grants every origin. Default: loopback origins only.
   */
  corsOrigins?: readonly string[]
  /**
   * Host names the `Host` header may carry besides loopback names, IP addresses and the bound
   * host (`.example.test` admits its subdomains too); others get 403 `forbidden_host`.
   */
  allowedHosts?: readonly string[]
  /** @internal What answers the requests (the threaded transport's HTTP worker forwards them); default: the sandbox's dispatcher. */
  dispatch?: Dispatch
}

/** How long the server waits for slow or idle clients, in milliseconds. */
export interface ServerTimeouts {
  /** Until the request line and headers are complete; default 10,000. */
  headersMs?: number
  /** Until the whole request (body included) has arrived; default 30,000. */
  requestMs?: number
  /** An idle keep-alive connection stays open; default 5,000. */
  keepAliveMs?: number
  /** How often the header/request timeouts are checked; default 1,000 (Node's own is 30,000, which lets a slow client hold a socket for 40 s). */
  checkIntervalMs?: number
}

/** What reading a body gave: the bytes, whether it stopped at the cap or at {@link MAX_BODY_PIECES}, whether the client went away. */
interface BodyRead {
  body: Uint8Array
  overflow: boolean
  fragmented: boolean
  aborted: boolean
}

/**
 * Reads at most {@link BODY_READ_CAP} bytes into ONE buffer, grown by doubling (sized from
 * Content-Length when announced). Keeping the chunks instead cost ~400 bytes of bookkeeping per
 * chunk: a body sent as 1-byte chunks took ~420 MB for 1 MiB (issue 11). Past the cap it stops
 * reading and reports `overflow`: the handlers answer `payload_too_large` from the bytes they got,
 * and the connection is closed after the answer, so an endless body is never buffered.
 */
async function readBody(req: IncomingMessage): Promise<BodyRead> {
  // A body that came with its headers (most do) is parsed in the same pass as they were, right
  // after the 'request' event: one microtask later all its announced bytes sit in the request's
  // buffer (node:http runs microtasks after pushing the body, before marking the message complete).
  // Taken from there at once, without the four listeners and the stream's flowing-mode ticks.
  await undefined
  if (req.readableFlowing === null && !req.destroyed && req.readableLength < BODY_READ_CAP && (req.complete || wholeByLength(req))) {
    const whole = req.read() as Buffer | null
    return { body: whole ?? NO_BODY, overflow: false, fragmented: false, aborted: false }
  }
  return readBodyAsItComes(req)
}

/** Every byte of a Content-Length body (not chunked) is buffered. */
function wholeByLength(req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return length !== undefined && req.headers['transfer-encoding'] === undefined && Number(length) === req.readableLength
}

/** {@link readBody} for a body still arriving (or one already past the cap). */
function readBodyAsItComes(req: IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'])
    let buffer = Buffer.allocUnsafe(Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, BODY_READ_CAP) : BODY_FIRST_ALLOCATION)
    let size = 0
    let pieces = 0
    let done = false
    const finish = (overflow: boolean, aborted: boolean, fragmented = false) => {
      if (done) return
      done = true
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
      resolve({ body: buffer.subarray(0, size), overflow, fragmented, aborted })
    }
    const onData = (chunk: Buffer) => {
      const room = BODY_READ_CAP - size
      const take = chunk.length > room ? room : chunk.length
      if (size + take > buffer.length) {
        let length = buffer.length === 0 ? BODY_FIRST_ALLOCATION : buffer.length * 2
        while (length < size + take) length *= 2
        const grown = Buffer.allocUnsafe(Math.min(length, BODY_READ_CAP))
        buffer.copy(grown, 0, 0, size)
        buffer = grown
      }
      chunk.copy(buffer, size, 0, take)
      size += take
      if (size >= BODY_READ_CAP) {
        req.pause()
        finish(true, false)
      } else if (++pieces > MAX_BODY_PIECES) {
        req.pause()
        finish(false, false, true)
      }
    }
    const onEnd = () => finish(false, false)
    const onError = () => finish(false, true)
    const onClose = () => finish(false, !req.complete)
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('close', onClose)
  })
}

/** The CORS headers of an answer to a request without an allowed origin (most of them): one shared, frozen object. */
const VARY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({ Vary: 'Origin' })

/** CORS headers for an answer to this request: the grant when the origin is allowed, `Vary: Origin` always. */
export function corsHeaders(policy: OriginPolicy, req: IncomingMessage): Readonly<Record<string, string>> {
  const granted = policy.corsOriginFor(req.headers.origin, req.headers.host)
  return granted === undefined
    ? VARY_ORIGIN
    : { 'Access-Control-Allow-Origin': granted, 'Access-Control-Expose-Headers': EXPOSED_HEADERS, Vary: 'Origin' }
}

/** The answer to a preflight: the grant only for an allowed origin (others get a bare 204 and the browser refuses). */
export function preflightHeaders(policy: OriginPolicy, req: IncomingMessage): Readonly<Record<string, string>> {
  const headers = corsHeaders(policy, req)
  if (headers['Access-Control-Allow-Origin'] === undefined) return { ...headers, Allow: ALLOWED_METHODS }
  return {
    ...headers,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
    'Access-Control-Max-Age': '600',
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Readonly<Record<string, string>>): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { ...extra, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) })
  res.end(text)
}

/** Connections answered with `Connection: close` whose client may still be sending (see `closeAfterAnswer`). */
const lingering = new WeakSet<Socket>()

/**
 * True for a request pipelined behind one whose answer closes the connection: it is never
 * answered (the client was told the connection closes) nor run, and its bytes flow past unread.
 */
function pipelinedAfterClose(req: IncomingMessage): boolean {
  if (!lingering.has(req.socket)) return false
  req.resume()
  return true
}

/** How long a connection closed mid-body still reads (and drops) what its client sends after the answer. */
export const LINGER_MS = 1_000

/**
 * Closes the connection once `res` is answered, for a request whose body was not read to its end
 * (too large, refused from its headers). Closing at once with the client's bytes unread makes the
 * kernel reset the connection (RST), and a client that had not yet read the answer loses it: it
 * sees ECONNRESET, not the error object (CI caught it on the threaded transport, whose answer
 * races the client's own event loop). So, the lingering close of Apache and nginx: FIN after the
 * answer, then drop what still arrives until the client closes its side or `LINGER_MS` passes,
 * then close. The time cap bounds what a client that never stops sending can cost.
 */
function closeAfterAnswer(res: ServerResponse, socket: Socket): void {
  if (lingering.has(socket)) return
  res.setHeader('Connection', 'close')
  lingering.add(socket)
  res.on('finish', () => {
    // Node's own close for `Connection: close` (destroySoon, run before this listener) destroys
    // the socket as soon as the FIN is out: take that back and linger instead.
    socket.removeListener('finish', socket.destroy)
    if (socket.destroyed) return
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
    socket.once('end', () => socket.destroy())
    socket.end()
    // The body reader paused the request at the cap: let the rest flow past, unread.
    res.req.resume()
  })
}

/** A transport-level refusal: the error object, and the connection closed when a body may still be on its way. */
function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Readonly<Record<string, string>>, closeAfter = false): number {
  if (closeAfter && res.socket !== null) closeAfterAnswer(res, res.socket)
  sendJson(res, status, { error: { code, message } }, headers)
  return status
}

/** True when the request announces a body (Content-Length > 0 or chunked). */
function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined
}

/**
 * Whether the handlers would refuse this request from its headers alone (no valid API key under
 * the API path, no admin token when one is set under `/__sandbox`): then its body is not read —
 * a keyless client cannot make the server buffer anything.
 */
function refusedFromHeaders(sandbox: Sandbox, apiPrefix: string, control: boolean, pathname: string, req: IncomingMessage): boolean {
  if (!control && (pathname === apiPrefix || pathname.startsWith(`${apiPrefix}/`))) {
    const token = bearerToken(req.headers.authorization)
    return token === undefined || sandbox.authenticate(token) === undefined
  }
  if (sandbox.adminToken !== undefined && control) {
    const given = offeredAdminToken((name) => { const value = req.headers[name]; return typeof value === 'string' ? value : undefined })
    return given === undefined || (!sameSecret(given, sandbox.adminToken) && teamViewer(sandbox.teamTokens, given) === undefined)
  }
  return false
}

/**
 * Writes a Response body the handlers did not give as text (a stream: server-sent events, a
 * long file) chunk by chunk, waiting for `drain` when the socket is full; stops reading it when
 * the client goes away.
 */
async function streamBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader()
  const stop = () => void reader.cancel().catch(() => undefined)
  res.once('close', stop)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || res.destroyed) break
      if (!res.write(value)) {
        await new Promise<void>((resume) => {
          const go = () => {
            res.off('drain', go)
            res.off('close', go)
            resume()
          }
          res.on('drain', go)
          res.on('close', go)
        })
      }
    }
  } finally {
    res.off('close', stop)
  }
  if (!res.destroyed) res.end()
}

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

/** The requests of a connection still being answered, for that connection's one pair of listeners. */
const UNANSWERED = Symbol('sendbox.unanswered')
type WatchedSocket = Socket & { [UNANSWERED]?: Set<ListenerRequest> }

/**
 * Aborts the request's signal when its client goes away before the answer is out: the
 * connection closes, or the client says it will send nothing more (FIN). One `end` and one
 * `close` listener per connection for all its requests, not one per request: requests pipelined
 * on one connection stacked a listener each, and Node warned of a leak past ten
 * (MaxListenersExceededWarning, printed under the terminal UI). The listener calls
 * {@link answered} once it has written the answer (or given up on it).
 */
function watchClient(socket: WatchedSocket, request: ListenerRequest): void {
  let unanswered = socket[UNANSWERED]
  if (unanswered === undefined) {
    const pending = new Set<ListenerRequest>()
    unanswered = socket[UNANSWERED] = pending
    const abandonAll = () => {
      for (const each of pending) each.abandon()
      pending.clear()
    }
    socket.once('end', abandonAll)
    socket.once('close', abandonAll)
  }
  unanswered.add(request)
}

/** The request's answer is written (or abandoned): its client leaving no longer concerns it. */
function answered(socket: WatchedSocket, request: ListenerRequest): void {
  socket[UNANSWERED]?.delete(request)
}

function goneReason(): DOMException {
  return new DOMException('The client closed the connection before the answer was sent.', 'AbortError')
}

/** What the request listener needs besides the sandbox. */
export interface ListenerOptions {
  onRequest?: (entry: RequestLog) => void
  /** Origins and hosts allowed (default: loopback only). */
  policy?: OriginPolicy
  /** What answers the requests the transport lets through; default: the sandbox's own dispatcher (`createDispatcher`). */
  dispatch?: Dispatch
}

/**
 * The request listener: node:http in, the sandbox's handlers (their route table and guard chain,
 * run by `createDispatcher` without msw's Fetch objects), node:http out. No body parser, no
 * framework: the transport checks what only it can see (Host,
 * Origin, the method, a form-style body sent to the controls), reads the bytes once (capped,
 * and only when the headers do not already doom the request) and hands them to the guard beside
 * the request; the answer's JSON text is written as the guard made it, any other body streamed.
 * The request carries an AbortSignal that fires when the client goes away before the answer is
 * out, so a long-poll can drop its waiter.
 */
export function createRequestListener(sandbox: Sandbox, options: ListenerOptions | ((entry: RequestLog) => void) = {}) {
  const { onRequest, policy = createOriginPolicy(), dispatch = createDispatcher(sandbox) } = typeof options === 'function' ? { onRequest: options } : options
  const origin = new URL(sandbox.baseUrl).origin
  const apiPrefix = new URL(sandbox.baseUrl).pathname.replace(/\/+$/, '') || '/'
  const base = resolveBaseUrl(sandbox.baseUrl)
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
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (pipelinedAfterClose(req)) return
    const started = performance.now()
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    let status = 500
    let aborted = false
    let watched: ListenerRequest | undefined
    const cors = corsHeaders(policy, req)
    try {
      const host = req.headers.host
      if (host === undefined ? req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 : !policy.allowsHost(host)) {
        status = host === undefined
          ? refuse(res, 400, 'invalid_request', 'HTTP/1.1 requests must carry a Host header, like `Host: 127.0.0.1:4010`.', {}, true)
          : refuse(res, 403, 'forbidden_host', `The Host header "${host.slice(0, 100)}" does not name this server. It answers loopback names (localhost, 127.0.0.1), IP addresses and its bound host; start it with \`--allowed-host NAME\` to add a name (this check stops DNS rebinding).`, {}, announcesBody(req))
        return
      }
      if (FORBIDDEN_METHODS.has(method)) {
        status = refuse(res, 400, 'invalid_request', `The ${method} method is not supported. The API uses GET, POST, PUT and DELETE.`, cors, announcesBody(req))
        return
      }
      if (method === 'OPTIONS') {
        res.writeHead(204, preflightHeaders(policy, req))
        res.end()
        status = 204
        return
      }
      if (!path.startsWith('/')) {
        status = refuse(res, 404, 'not_found', 'Request target must be a path.', cors, announcesBody(req))
        return
      }
      // Parsed once, as the handlers see it: `/v1/%2e%2e/__sandbox/x` is `/__sandbox/x`, and
      // `//x/__sandbox/y` is a path under this origin (not a host), as `origin + path` makes it.
      const target = targetOf(path)
      const pathname = target?.pathname ?? path
      // Both forms of the controls (`/__sandbox/reset`, `/v1/__sandbox/reset`): the base-URL form
      // once skipped the origin check (a foreign page could reset) and lost its body (issue 27).
      const control = isControlPath(base, pathname)
      if (control && STATE_CHANGING.has(method)) {
        const requestOrigin = req.headers.origin
        if (requestOrigin !== undefined && !policy.allowsOrigin(requestOrigin, host)) {
          status = refuse(res, 403, 'forbidden_origin', `Pages from ${requestOrigin.slice(0, 100)} may not change the sandbox. Allowed: loopback origins (http://localhost:*, http://127.0.0.1:*) and those given with \`--cors-origin\`.`, cors, announcesBody(req))
          return
        }
        const contentType = req.headers['content-type']
        if (contentType !== undefined && !JSON_CONTENT_TYPE.test(contentType)) {
          status = refuse(res, 400, 'invalid_content_type', `Sandbox controls take JSON bodies only: send \`Content-Type: application/json\` (got "${contentType.slice(0, 100)}").`, cors, announcesBody(req))
          return
        }
      }
      const hasBody = method !== 'GET' && method !== 'HEAD'
      // A request the guard will refuse from its headers (401) is answered without reading its body.
      const skipBody = hasBody && announcesBody(req) && refusedFromHeaders(sandbox, apiPrefix, control, pathname, req)
      let body: Uint8Array = NO_BODY
      let overflow = false
      if (hasBody && !skipBody) {
        const read = await readBody(req)
        if (read.aborted) {
          // The client went away mid-body (truncated, reset): nothing to answer, no sandbox bug.
          aborted = true
          res.destroy()
          return
        }
        if (read.fragmented) {
          status = refuse(res, 400, 'invalid_request', `The body arrived in more than ${MAX_BODY_PIECES.toLocaleString('en-US')} pieces (${read.body.length.toLocaleString('en-US')} bytes so far); send it in larger chunks.`, cors, true)
          return
        }
        body = read.body
        overflow = read.overflow
      }
      if (control && STATE_CHANGING.has(method) && body.length > 0 && req.headers['content-type'] === undefined) {
        status = refuse(res, 400, 'invalid_content_type', 'Sandbox controls take JSON bodies only: send `Content-Type: application/json`.', cors, overflow)
        return
      }
      const closeAfter = overflow || skipBody
      // Decided now, before the answer is awaited: a request pipelined behind this one may be
      // parsed meanwhile (its bytes were already here), and must find the connection closing.
      if (closeAfter) closeAfterAnswer(res, req.socket)
      // No Fetch objects: the dispatcher runs the handlers' guard chain on node:http's own data,
      // with the body beside the request (see attachBufferedBody). Parsed as a Request would.
      if (target === undefined) throw new TypeError(`Invalid URL: ${path.slice(0, 200)}`)
      const { url } = target
      const request = new ListenerRequest(method, target.href, new RawHeaders(req.rawHeaders), req.socket.remoteAddress)
      // Its signal aborts when the client is gone (the socket closes) or has said it will send
      // nothing more (FIN while the answer is pending): a long-poll drops its waiter. The answer
      // is still written, for a client that half-closed after its request and reads on.
      watched = request
      watchClient(req.socket, request)
      attachBufferedBody(request, body)
      const answer: Answer | undefined = await dispatch(request, url)
      if (!answer) {
        status = refuse(res, 404, 'not_found', `Nothing at ${method} ${path.split('?')[0].slice(0, 200)}. The API is under /v1 (for example POST /v1/email/send); sandbox controls are under /__sandbox.`, cors, closeAfter)
        return
      }
      status = answer.status
      // A flat [name, value, …] list: node:http walks an object's keys with for-in and a
      // hasOwnProperty check each, an array by index.
      const headers: string[] = []
      for (const name in cors) headers.push(name, cors[name])
      forEachAnswerHeader(answer, (name, value) => {
        headers.push(name, value)
      })
      const payload = bodyOf(answer)
      const zipped = typeof payload === 'string' ? gzipAnswer(path, req.headers['accept-encoding'], payload) : undefined
      if (zipped !== undefined) {
        headers.push('content-encoding', 'gzip', 'vary', 'Accept-Encoding', 'content-length', String(zipped.byteLength))
        res.writeHead(status, headers)
        res.end(method === 'HEAD' ? undefined : zipped)
        return
      }
      if (typeof payload === 'string') {
        if (payload.length >= SHARED_PAYLOAD_CHARS) {
          // One buffer for the same big text written to many sockets (a burst of waiters answered
          // with one message): each socket holds a reference until flushed, not a copy.
          const bytes = sharedBytes(payload)
          headers.push('content-length', String(bytes.byteLength))
          writeInTurn(bytes.byteLength, () => {
            if (res.destroyed) return
            res.writeHead(status, headers)
            res.end(bytes)
          })
          return
        }
        headers.push('content-length', String(Buffer.byteLength(payload)))
        res.writeHead(status, headers)
        res.end(payload)
        return
      }
      // A body the handlers did not give as text (an event stream, a document): stream it as it comes.
      res.writeHead(status, headers)
      res.flushHeaders()
      await streamBody(payload, res)
    } catch (error) {
      if (res.socket === null || res.socket.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        // The client went away mid-answer: nothing to answer, no sandbox bug.
        aborted = true
        res.destroy()
        return
      }
      status = 500
      console.error(`[sendbox] unexpected server error on ${method} ${path.slice(0, 200)}:`, error)
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'internal_error', message: 'Unexpected sandbox failure. This is a bug in sendbox; stderr has the details.' } }, { ...cors, Connection: 'close' })
      else res.destroy()
    } finally {
      if (watched !== undefined) answered(req.socket, watched)
      if (!aborted) onRequest?.({ method, path, status, ms: performance.now() - started })
    }
  }
}

/** Answers this long (in UTF-16 units) are written from one encoded buffer per text, see {@link sharedBytes}. */
const SHARED_PAYLOAD_CHARS = 64 * 1024
let lastShared: { text: string; bytes: Buffer } | undefined

/**
 * The UTF-8 bytes of a big answer text, encoded once for consecutive answers with the same text
 * (`res.end(text)` encodes a copy per socket: 1,000 waiters × a 3 MB message was 3 GB). One entry:
 * the same text comes in a burst; the comparison is by identity first, so it costs nothing then.
 */
function sharedBytes(text: string): Buffer {
  if (lastShared === undefined || lastShared.text !== text) lastShared = { text, bytes: Buffer.from(text) }
  return lastShared.bytes
}

/** Bytes of big answers written per event-loop turn; the rest waits for the next turn. */
const WRITE_BYTES_PER_TURN = 2 * 1024 * 1024
const waitingWrites: Array<{ bytes: number; write: () => void }> = []
let writtenThisTurn = 0
let turnScheduled = false

/**
 * Writes a big answer now if this event-loop turn has room, else in a later turn. Each write
 * copies up to a socket buffer's worth into the kernel at once: a thousand 3 MB answers in one
 * turn held the loop for seconds (health, every other request waited). Spread over turns, other
 * requests are answered between them. `setImmediate` from node:timers: a test's fake timers
 * (which replace the global one) never stall the server's writes.
 */
// Through getBuiltinModule: the library entry (dist/lib) keeps its static imports to msw and node:http.
const nextTurn = (process.getBuiltinModule('node:timers') as typeof import('node:timers')).setImmediate

function writeInTurn(bytes: number, write: () => void): void {
  if (waitingWrites.length === 0 && writtenThisTurn < WRITE_BYTES_PER_TURN) {
    writtenThisTurn += bytes
    write()
  } else waitingWrites.push({ bytes, write })
  scheduleTurn()
}

function scheduleTurn(): void {
  if (turnScheduled) return
  turnScheduled = true
  nextTurn(() => {
    turnScheduled = false
    writtenThisTurn = 0
    while (waitingWrites.length > 0 && writtenThisTurn < WRITE_BYTES_PER_TURN) {
      const next = waitingWrites.shift()!
      writtenThisTurn += next.bytes
      next.write()
    }
    if (waitingWrites.length > 0 || writtenThisTurn > 0) scheduleTurn()
  })
}

/** The raw answer for a socket that never became a request (parser errors, CONNECT). */
function rawErrorAnswer(socket: Socket, message: string): void {
  const body = JSON.stringify({ error: { code: 'invalid_request', message } })
  socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
}

/** A running standalone server. */
export interface RunningServer {
  server: Server
  url: string
  port: number
  close(): Promise<void>
}

/**
 * Starts the standalone HTTP server over a sandbox. Rejects (with the OS error) when the port is
 * taken.
 */
export function startServer(sandbox: Sandbox, options: ServerOptions = {}): Promise<RunningServer> {
  const policy = createOriginPolicy({ corsOrigins: options.corsOrigins, allowedHosts: options.allowedHosts, boundHost: options.host ?? '127.0.0.1' })
  const listener = createRequestListener(sandbox, { onRequest: options.onRequest, policy, dispatch: options.dispatch })
  const timeouts = options.timeouts ?? {}
  const server = createServer({
    headersTimeout: timeouts.headersMs ?? 10_000,
    requestTimeout: timeouts.requestMs ?? 30_000,
    keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
    connectionsCheckingInterval: timeouts.checkIntervalMs ?? 1_000,
    // Node's own answer to a missing Host is an empty 400; the listener answers with the error object.
    requireHostHeader: false,
  }, (req, res) => {
    // Draining: a request that still arrives on an open keep-alive connection is answered, then the connection closes.
    if (closing) res.setHeader('Connection', 'close')
    void listener(req, res)
  })
  let closing = false
  // A client may half-close after its request and still read the answer (RFC 9112: "a half-closed
  // TCP connection does not delimit a request message, nor does it imply that the client is no
  // longer interested in a response"). Node's default aborts the request instead, so a delayed
  // answer (`Prefer: delay`, a fault's delay) was never sent. Undocumented but long-standing
  // (kept by nodejs/node#36819 because userland uses it).
  ;(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  // Node answers an unknown `Expect` with an empty 417 (not in the API's status list) unless asked.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (pipelinedAfterClose(req)) return
    const started = performance.now()
    const status = refuse(res, 400, 'invalid_request', `Unsupported \`Expect: ${String(req.headers.expect).slice(0, 100)}\`; only \`Expect: 100-continue\` is understood.`, corsHeaders(policy, req), true)
    options.onRequest?.({ method: req.method ?? '?', path: req.url ?? '/', status, ms: performance.now() - started })
  })
  // CONNECT never reaches the request listener: without this Node closes the socket silently.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    rawErrorAnswer(socket, 'The CONNECT method is not supported: this is not a proxy. The API uses GET, POST, PUT and DELETE.')
    options.onRequest?.({ method: 'CONNECT', path: req.url ?? '', status: 400, ms: 0 })
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy()
    // Still the API's error object (and a documented status), even below HTTP.
    rawErrorAnswer(socket as Socket, error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request line and headers are larger than the server accepts (16 KiB). Send a shorter URL or fewer headers.'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request took too long to arrive; the connection is closed.'
        : 'Malformed HTTP request; the connection is closed.')
  })
  return listenOn(server, options, () => {
    closing = true
  })
}

/**
 * Requests of a connection not yet answered (pipelined ones count too). A count on the socket,
 * not a Set of busy sockets: adding and deleting a socket per request churned the Set's hash
 * table, and each table lived long enough to be promoted to the old generation.
 */
const IN_FLIGHT = Symbol('sendbox.inFlight')
type CountedSocket = Socket & { [IN_FLIGHT]?: number }

/**
 * Listens on `options.host` (loopback by default) and `options.port`, and resolves with the
 * running server; rejects with the OS error (a port in use). `close()` stops accepting, answers
 * what is in flight, and closes each keep-alive connection as soon as it is idle. Shared by the
 * node:http server and the benchmark's express variant.
 *
 * Idle keep-alive connections are closed gracefully, and `close()` waits for each client to
 * close its side: a client's pool (undici behind global `fetch`) then knows the socket is gone
 * before `close()` resolves. Destroying them outright (what `server.close()` does) let a
 * `startServer` on the same port right after be answered by "other side closed" when the pool
 * reused the dead socket (issue 14: 17 of 30 restarts). In-flight connections are answered with
 * `Connection: close`, so their clients never reuse them either.
 */
export function listenOn(server: Server, options: ServerOptions, onClosing?: () => void): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => {
      sockets.delete(socket)
    })
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket: CountedSocket = req.socket
    socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1
    res.once('close', () => {
      socket[IN_FLIGHT]!--
    })
  })
  /** Ends idle connections (FIN) and resolves when their clients have closed them too, or after `ms`. */
  const endIdle = (ms: number) => {
    const idle = [...sockets].filter((socket: CountedSocket) => (socket[IN_FLIGHT] ?? 0) === 0)
    return Promise.all(idle.map((socket) => new Promise<void>((closed) => {
      const timer = setTimeout(() => socket.destroy(), ms)
      socket.once('close', () => {
        clearTimeout(timer)
        closed()
      })
      socket.end()
    })))
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      const shownHost = host.includes(':') ? `[${host}]` : host
      resolve({
        server,
        port,
        url: `http://${shownHost}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            onClosing?.()
            void endIdle(1_000).then(() => {
              // Stops accepting and closes what is idle now. Connections whose request is still in
              // flight are answered with `Connection: close` and close themselves; the sweep is a
              // fallback, so the server is closed when the last answer is out, not keepAliveTimeout later.
              const sweep = setInterval(() => server.closeIdleConnections(), 50)
              server.close(() => {
                clearInterval(sweep)
                done()
              })
            })
          }),
      })
    })
  })
}
