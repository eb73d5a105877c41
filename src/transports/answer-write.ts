/**
 * Writing answers on node:http: the error object of a refusal, the lingering close of a
 * connection whose body was not read, CORS headers, a turn's answers written together, big texts
 * shared and paced across sockets, streamed bodies, and the raw answer below HTTP.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { bodyOf, pushAnswerHeaders, type Answer } from '../http/body.js'
import { ERROR_CODES, type ErrorCodeName } from '../contract/error.js'
import { immediate } from '../domain/event-loop.js'
import { gzipAnswer } from './compress.js'
import { ALLOWED_METHODS, ALLOWED_REQUEST_HEADERS, EXPOSED_HEADERS, type OriginPolicy } from './origin-policy.js'

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

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Readonly<Record<string, string>>,
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...extra,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
  })
  res.end(text)
}

/** Connections answered with `Connection: close` whose client may still be sending (see `closeAfterAnswer`). */
const lingering = new WeakSet<Socket>()

/**
 * True for a request pipelined behind one whose answer closes the connection: it is never
 * answered (the client was told the connection closes) nor run, and its bytes flow past unread.
 */
export function pipelinedAfterClose(req: IncomingMessage): boolean {
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
export function closeAfterAnswer(res: ServerResponse, socket: Socket): void {
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

/**
 * A transport-level refusal: the error object, with its code's status, and the connection closed
 * when a body may still be on its way. Gives the status.
 */
export function refuse(
  res: ServerResponse,
  code: ErrorCodeName,
  message: string,
  headers: Readonly<Record<string, string>>,
  closeAfter = false,
): number {
  const { status } = ERROR_CODES[code]
  if (closeAfter && res.socket !== null) closeAfterAnswer(res, res.socket)
  sendJson(res, status, { error: { code, message } }, headers)
  return status
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
 * Answers this long (in UTF-16 units) are written as encoded bytes, see {@link sharedBytes}. A
 * text written as a string is measured (`Buffer.byteLength`), joined to the head and flattened,
 * then encoded again by the socket write: four passes over a list page's ~4.5 KB. Bytes are
 * written beside the head as they are (a `writev`), and the same page's text, kept by the route,
 * is encoded once.
 */
const ENCODED_PAYLOAD_CHARS = 1024
/** Answers this long are also paced across event-loop turns, see {@link writeInTurn}. */
const SHARED_PAYLOAD_CHARS = 64 * 1024
let lastShared: { text: string; bytes: Buffer } | undefined

/**
 * The UTF-8 bytes of an answer text, encoded once for consecutive answers with the same text
 * (`res.end(text)` encodes a copy per socket: 1,000 waiters × a 3 MB message was 3 GB; a list
 * page answered again is the same string). One entry: the same text comes in a burst; the
 * comparison is by identity first, so it costs nothing then.
 */
function sharedBytes(text: string): Buffer {
  if (lastShared === undefined || lastShared.text !== text) lastShared = { text, bytes: Buffer.from(text) }
  return lastShared.bytes
}

/**
 * At most this many answers wait for the turn's end; the one that fills the queue writes them all.
 * It bounds what the first answer of a turn waits (a turn of 1,000 requests ready at once).
 */
export const ENDS_PER_FLUSH = 64
/** The answers waiting for this turn's end: response, body, response, body… */
let ends: Array<ServerResponse | string | Uint8Array | undefined> = []

/**
 * Ends `res` (its head already set) with `body` once this event-loop turn's I/O is handled, with
 * every other answer of the turn. Each socket write to a client waiting in `epoll_wait` wakes
 * it, and on loopback the waking is the writer's CPU (`sock_def_readable` in perf: 6.4 µs of a
 * send's 54 against 1.0 for a bare server, whose client never sleeps): one answer written per
 * request, as it was made, woke the client once a request; answers written together wake it
 * once a turn (docs/decisions/answers-per-turn.md). An answer waits at most for the other
 * requests already read in this turn ({@link ENDS_PER_FLUSH}).
 */
function endInTurn(res: ServerResponse, body: string | Uint8Array | undefined): void {
  // An answer that closes its connection (a body refused unread) ends now: while it waited, the
  // client's body kept arriving into the unread request (32 uploads of 6 MB in 1-byte chunks took the
  // server from ~110 MB to 340-450 on Node 24, against ~155 ended at once: test/abuse/tiny-chunks.test.ts).
  if (res.socket !== null && lingering.has(res.socket)) return void res.end(body)
  ends.push(res, body)
  // One that fills the queue writes it now; the first of a queue schedules its flush.
  if (ends.length >= 2 * ENDS_PER_FLUSH) flushEnds()
  else if (ends.length === 2) immediate(flushEnds)
}

function flushEnds(): void {
  const waiting = ends
  ends = []
  for (let i = 0; i < waiting.length; i += 2) {
    const res = waiting[i] as ServerResponse
    if (res.destroyed) continue
    try {
      res.end(waiting[i + 1])
    } catch {
      // A socket that failed under the write: nothing more can be said on it.
      res.destroy()
    }
  }
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
 * requests are answered between them, in turns a test's fake timers do not stall ({@link immediate}).
 */
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
  immediate(() => {
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
export function rawErrorAnswer(socket: Socket, message: string): void {
  const body = JSON.stringify({ error: { code: 'invalid_request', message } })
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/**
 * Writes the handlers' answer: CORS and the answer's headers as one flat list, the text gzipped
 * when the client takes it and it is worth it, ended with the turn's other answers at the turn's
 * end ({@link endInTurn}), a big text from one shared buffer paced across event-loop turns, any
 * other body streamed as it comes (the promise: only a streamed body's, so a text answer costs no
 * await).
 */
export function writeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  answer: Answer,
  cors: Readonly<Record<string, string>>,
): Promise<void> | undefined {
  const status = answer.status
  // A flat [name, value, …] list: node:http walks an object's keys with for-in and a
  // hasOwnProperty check each, an array by index.
  const headers: string[] = []
  for (const name in cors) headers.push(name, cors[name])
  pushAnswerHeaders(answer, headers)
  const payload = bodyOf(answer)
  const zipped =
    typeof payload === 'string' ? gzipAnswer(req.url ?? '/', req.headers['accept-encoding'], payload) : undefined
  if (zipped !== undefined) {
    headers.push('content-encoding', 'gzip', 'vary', 'Accept-Encoding', 'content-length', String(zipped.byteLength))
    res.writeHead(status, headers)
    endInTurn(res, req.method === 'HEAD' ? undefined : zipped)
    return
  }
  if (typeof payload === 'string') {
    if (payload.length >= ENCODED_PAYLOAD_CHARS) {
      // One buffer for the same text written to many sockets (a burst of waiters answered with
      // one message): each socket holds a reference until flushed, not a copy.
      const bytes = sharedBytes(payload)
      headers.push('content-length', String(bytes.byteLength))
      if (payload.length < SHARED_PAYLOAD_CHARS) {
        res.writeHead(status, headers)
        endInTurn(res, bytes)
        return
      }
      writeInTurn(bytes.byteLength, () => {
        if (res.destroyed) return
        res.writeHead(status, headers)
        res.end(bytes)
      })
      return
    }
    headers.push('content-length', String(Buffer.byteLength(payload)))
    res.writeHead(status, headers)
    endInTurn(res, payload)
    return
  }
  // A body the handlers did not give as text (an event stream, a document): stream it as it comes.
  res.writeHead(status, headers)
  res.flushHeaders()
  return streamBody(payload, res)
}
