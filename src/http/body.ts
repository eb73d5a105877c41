import { ApiError } from '../domain/errors.js'
import { utf8Length } from '../domain/utf8.js'

/** Largest accepted request body: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024

const JSON_CONTENT_TYPE = /^application\/json[ \t]*(?:;|$)/i
const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Request bodies the standalone server has already read (capped at 1 MiB + 1 byte), as a property
 * of the request (a `WeakMap` entry per request would be an ephemeron the collector has to walk):
 * of the transport's own request object, or of the Fetch `Request` the server hands msw without a
 * body stream. A body stream costs its creation, a tee when msw clones the request, and a read —
 * ~50 µs a send — for bytes that are in memory already. Without one (in-process), the guard reads
 * the stream.
 */
const BUFFERED = Symbol('sendbox.bufferedBody')
type Carrier = WireRequest & { [BUFFERED]?: Uint8Array }

/**
 * `value instanceof Response`, without reading the global `Response` for a plain object (what the
 * guard answers and most routes return). That global is node's Fetch (undici, on Node 20, 22 and 24),
 * loaded on first use: ~30 ms of the CLI's start, which its API answers never need
 * (docs/decisions/cli-start-without-fetch.md).
 */
export function isResponse(value: object): value is Response {
  return Object.getPrototypeOf(value) !== Object.prototype && value instanceof Response
}

/**
 * What the guard chain reads of a request. A Fetch `Request` is one (in-process, under msw); the
 * standalone server passes a lighter one built from node:http's own objects (see
 * `createDispatcher` in handlers/index.ts), so that no Fetch object is made per request.
 */
export interface WireRequest {
  readonly method: string
  /** Absolute and WHATWG-normalised, as a Request's `url`. */
  readonly url: string
  /** Case-insensitive; repeated headers joined with `, `, as Fetch's `Headers.get`. */
  readonly headers: { get(name: string): string | null }
  /** Aborted when the client goes away (a long poll drops its waiter). */
  readonly signal: AbortSignal
  /** The client's address, when a transport knows it (the standalone server); in-process none. */
  readonly clientAddress?: string
}

/**
 * An answer with a JSON body, as the guard makes it: `text` is the body (null for HEAD), headers
 * as the guard set them. A transport writes it as it is; under msw {@link toResponse} makes it a
 * Response. A route that answers otherwise (HTML, an event stream) gives its own Response.
 */
export interface JsonAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly text: string | null
}

/** What the guard chain answers: JSON it made, or a route's own Response. */
export type Answer = JsonAnswer | Response

/**
 * Gives the guard the body of a request the transport has read already (see the standalone
 * server; an empty array for a request without one). The request itself is then built without a
 * body, and the transport promises to write each answer from {@link answerTextOf}: the guard's
 * answers to such a request carry no body stream, which nobody would read.
 */
export function attachBufferedBody(request: WireRequest, bytes: Uint8Array): void {
  ;(request as Carrier)[BUFFERED] = bytes
}

/** True when the transport read this request's body itself (see {@link attachBufferedBody}). */
export function isBuffered(request: WireRequest): boolean {
  return bufferedBodyOf(request) !== undefined
}

/** The JSON text of every answer the guard built, so a transport writes it without reading the Response stream back. */
const answerTexts = new WeakMap<Response, string>()

/**
 * The JSON text of an answer built by the sandbox's handlers, or undefined for any other
 * Response (then read its body as usual — a stream such as `/__sandbox/events` included). Lets
 * the standalone server skip reading back a stream it would only turn into the same bytes.
 */
export function answerTextOf(response: Response): string | undefined {
  return answerTexts.get(response)
}

/**
 * The bytes a transport attached with {@link attachBufferedBody}, or undefined. The threaded
 * transport reads them in its HTTP worker to hand them to the main thread, where the sandbox is.
 */
export function bufferedBodyOf(request: WireRequest): Uint8Array | undefined {
  return (request as Carrier)[BUFFERED]
}

/**
 * Headers read from an alternating name/value list — node:http's `rawHeaders`, or the pairs the
 * threaded transport's worker sends — with Fetch's `Headers.get` semantics: any case, repeated
 * headers joined with `, ` (node:http's parsed `headers` keep only the first of some, such as
 * Authorization). No Fetch `Headers` object per request.
 */
export class RawHeaders {
  constructor(readonly pairs: readonly string[]) {}

  get(name: string): string | null {
    const wanted = name.toLowerCase()
    const pairs = this.pairs
    let value: string | null = null
    for (let i = 0; i < pairs.length; i += 2) {
      const candidate = pairs[i]
      // Most clients send names in lower case already: equal as they are, nothing to allocate.
      if (candidate.length === wanted.length && (candidate === wanted || candidate.toLowerCase() === wanted))
        value = value === null ? pairs[i + 1] : `${value}, ${pairs[i + 1]}`
    }
    return value
  }
}

/** Appends a Fetch `Headers` to `pairs` as alternating names and values (names lower-case, in its order); gives `pairs`. */
export function pushHeaderPairs(headers: Headers, pairs: string[]): string[] {
  headers.forEach((value, name) => pairs.push(name, value))
  return pairs
}

/** A Fetch `Headers` from an alternating name/value list; a value Fetch refuses (control characters) is dropped, as a proxy would. */
export function fetchHeaders(pairs: readonly string[]): Headers {
  const headers = new Headers()
  for (let i = 0; i < pairs.length; i += 2) {
    try {
      headers.append(pairs[i], pairs[i + 1])
    } catch {
      // Refused by Fetch's Headers: drop it.
    }
  }
  return headers
}

/**
 * An answer's body as a transport writes it: the JSON text (empty for HEAD or a body-less
 * Response), or the stream of a Response the guard did not make as text (an event stream, a page).
 */
export function bodyOf(answer: Answer): string | ReadableStream<Uint8Array> {
  if (!isResponse(answer)) return answer.text ?? ''
  return answerTextOf(answer) ?? answer.body ?? ''
}

/** Appends an answer's headers to `pairs` as names and values, names lower-case as a Response lists them (a JSON answer's in the order the guard set them). */
export function pushAnswerHeaders(answer: Answer, pairs: string[]): void {
  if (isResponse(answer)) {
    pushHeaderPairs(answer.headers, pairs)
    return
  }
  const headers = answer.headers
  for (const name in headers) pairs.push(name.toLowerCase(), headers[name])
}

/** A JSON answer: the body serialised once (HEAD answers carry none). */
export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string>,
  request: WireRequest,
): JsonAnswer {
  return jsonTextAnswer(status, request.method === 'HEAD' ? null : JSON.stringify(body), headers)
}

/** {@link jsonAnswer} for a body that is JSON text already (HEAD: pass null). */
export function jsonTextAnswer(status: number, text: string | null, headers: Record<string, string>): JsonAnswer {
  headers['Content-Type'] = 'application/json'
  return { status, headers, text }
}

/**
 * The Response msw gets for an answer. For a request whose body the transport buffered, and for
 * HEAD, it carries no body stream (the transport writes {@link answerTextOf}; HEAD answers have none).
 */
export function toResponse(answer: Answer, request: Request): Response {
  if (isResponse(answer)) return answer
  const bodiless = answer.text === null || isBuffered(request)
  // Its length, as a real server sends it: without one, msw's interceptor frames the answer as
  // ending with the connection, so undici closes it after each answer and the next request opens
  // another (a test's send through msw 3 took ~0.7 ms more than one answered by HttpResponse.json).
  const headers = bodiless ? answer.headers : { ...answer.headers, 'Content-Length': String(utf8Length(answer.text!)) }
  const response = new Response(bodiless ? null : answer.text, { status: answer.status, headers })
  if (answer.text !== null) answerTexts.set(response, answer.text)
  return response
}

/**
 * The bytes of a request body, checked against the size cap first (Content-Length, then what
 * arrives): `payload_too_large` past 1 MiB. An empty array for a request without a body.
 */
export async function readBodyBytes(request: WireRequest): Promise<Uint8Array> {
  return bodyBytesAtHand(request) ?? readBodyStream(request)
}

/** The body of a request whose bytes are not at hand ({@link bodyBytesAtHand} said so): a Fetch Request's stream, read capped. */
export async function readBodyStream(request: WireRequest): Promise<Uint8Array> {
  return checkedSize(await readCapped(request as Request))
}

/**
 * The body's bytes when they need no reading (a transport buffered them, or a Fetch Request has
 * none), else undefined: {@link readBodyBytes} without a turn of the microtask queue. Throws the
 * 413 as it does.
 */
export function bodyBytesAtHand(request: WireRequest): Uint8Array | undefined {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge()
  const bytes = bufferedBodyOf(request) ?? ((request as Request).body === null ? new Uint8Array(0) : undefined)
  return bytes === undefined ? undefined : checkedSize(bytes)
}

function checkedSize(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge()
  return bytes
}

/** True when a request says it carries a body: a non-zero Content-Length, or any Transfer-Encoding. */
export function announcesBody(request: WireRequest): boolean {
  const length = request.headers.get('content-length')
  return (
    (length !== null && length.trim() !== '' && Number(length) !== 0) ||
    request.headers.get('transfer-encoding') !== null
  )
}

/**
 * For a route that takes no body (GET, DELETE): a body is ignored, but only a JSON one — "every
 * request with a body carries `Content-Type: application/json`" holds for GET too (the reference),
 * so `GET /subscribers` with a `text/plain` body is a 400, not a 200 (issue 27, fidelity).
 */
export function checkIgnoredBody(request: WireRequest): void {
  if (!announcesBody(request)) return
  const contentType = request.headers.get('content-type')
  if (contentType === null || !JSON_CONTENT_TYPE.test(contentType)) {
    throw new ApiError(
      'invalid_content_type',
      `Requests with a body must carry \`Content-Type: application/json\`${contentType ? ` (got "${contentType.slice(0, 100)}")` : ''}; this endpoint takes no body, so send none.`,
    )
  }
}

/**
 * The JSON object in a body, with the contract's checks in order: present → content type → JSON → object.
 * The body's text, once decoded, is left in `decoded.text` (the journal keeps it: no second decoding).
 */
export function parseJsonObject(
  request: WireRequest,
  bytes: Uint8Array,
  decoded?: { text?: string },
): Record<string, unknown> {
  if (bytes.byteLength === 0) {
    throw new ApiError(
      'invalid_json',
      'A JSON body is required. Send a JSON object with `Content-Type: application/json`.',
    )
  }
  const contentType = request.headers.get('content-type')
  if (contentType === null || !JSON_CONTENT_TYPE.test(contentType)) {
    throw new ApiError(
      'invalid_content_type',
      `Requests with a body must carry \`Content-Type: application/json\`${contentType ? ` (got "${contentType.slice(0, 100)}")` : ''}.`,
    )
  }
  let parsed: unknown
  try {
    const text = decoder.decode(bytes)
    if (decoded !== undefined) decoded.text = text
    parsed = JSON.parse(text)
  } catch {
    throw new ApiError(
      'invalid_json',
      'The body is not valid JSON. Check for trailing commas, unquoted keys or single quotes.',
    )
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('invalid_json', 'The body must be a JSON object, like {"to": "..."}.')
  }
  return parsed as Record<string, unknown>
}

/** The message a user sees when another msw handler read the body before the sandbox's. */
export const BODY_ALREADY_READ =
  "The request body was already read by another handler before sendbox's (a handler that called `request.json()`/`text()` without cloning the request, then fell through). Read `request.clone()` in that handler, or put the sandbox's handlers first."

/**
 * Reads a body stream up to one byte past the limit, then stops: enough to answer
 * `payload_too_large`, and an endless body (chunked, no Content-Length) is never buffered whole.
 * Chunks are copied into one buffer that grows by doubling (no array of chunks to concatenate).
 * The stream is left uncancelled so a transport can still answer on the same connection.
 */
async function readCapped(request: Request): Promise<Uint8Array> {
  if (request.bodyUsed) throw new ApiError('internal_error', BODY_ALREADY_READ)
  const stream = request.body!
  let reader: ReadableStreamDefaultReader<Uint8Array>
  try {
    reader = stream.getReader()
  } catch {
    // Locked by someone else: a user handler is reading it (or read it and kept the lock).
    throw new ApiError('internal_error', BODY_ALREADY_READ)
  }
  let buffer: Uint8Array = new Uint8Array(0)
  let size = 0
  try {
    while (size <= MAX_BODY_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      if (size === 0 && buffer.byteLength === 0 && value.byteLength > 0) {
        // The common case: one chunk. Keep it as is, copy only when a second one arrives.
        buffer = value
        size = value.byteLength
        continue
      }
      if (size + value.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(
          Math.max(size + value.byteLength, Math.min(buffer.byteLength * 2, MAX_BODY_BYTES + 1), 1024),
        )
        grown.set(buffer.subarray(0, size))
        buffer = grown
      }
      buffer.set(value, size)
      size += value.byteLength
    }
  } finally {
    reader.releaseLock()
  }
  return size === buffer.byteLength ? buffer : buffer.subarray(0, size)
}

function tooLarge(): ApiError {
  return new ApiError(
    'payload_too_large',
    `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB). Send less data per request.`,
  )
}
