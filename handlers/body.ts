import { ApiError } from '../src/domain/errors.js'

/** Largest accepted request body: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024

const JSON_CONTENT_TYPE = /^application\/json[ \t]*(?:;|$)/i
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

/** True when the transport read this request's body itself (see {@link attachBufferedBody}). */
export function isBuffered(request: Request): boolean {
  return bufferedBodies.has(request)
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
 * A JSON answer. For a request whose body the transport buffered, and for HEAD, the Response
 * carries no body stream (the transport writes {@link answerTextOf}; HEAD answers have none).
 */
export function json(status: number, body: unknown, headers: Record<string, string>, request?: Request): Response {
  headers['Content-Type'] = 'application/json'
  const text = JSON.stringify(body)
  const bodiless = request !== undefined && (request.method === 'HEAD' || bufferedBodies.has(request))
  const response = new Response(bodiless ? null : text, { status, headers })
  if (request?.method !== 'HEAD') answerTexts.set(response, text)
  return response
}

/**
 * The bytes of a request body, checked against the size cap first (Content-Length, then what
 * arrives): `payload_too_large` past 1 MiB. An empty array for a request without a body.
 */
export async function readBodyBytes(request: Request): Promise<Uint8Array> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge()
  const bytes = bufferedBodies.get(request) ?? (request.body === null ? new Uint8Array(0) : await readCapped(request))
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge()
  return bytes
}

/** The JSON object in a body, with the contract's checks in order: present → content type → JSON → object. */
export function parseJsonObject(request: Request, bytes: Uint8Array): Record<string, unknown> {
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

/** Reads the body of a POST/PUT and returns the JSON object (see {@link readBodyBytes}, {@link parseJsonObject}). */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  return parseJsonObject(request, await readBodyBytes(request))
}

/** The message a user sees when another msw handler read the body before the sandbox's. */
export const BODY_ALREADY_READ =
  'The request body was already read by another handler before sendbox\'s (a handler that called `request.json()`/`text()` without cloning the request, then fell through). Read `request.clone()` in that handler, or put the sandbox\'s handlers first.'

/**
 * Reads a body stream up to one byte past the limit, then stops: enough to answer
 * `payload_too_large`, and an endless body (chunked, no Content-Length) is never buffered whole.
 * Chunks are copied into one buffer that grows by doubling (no array of chunks to concatenate).
 * The stream is left uncancelled so a transport can still answer on the same connection.
 */
async function readCapped(request: Request): Promise<Uint8Array> {
  if (request.bodyUsed) throw new ApiError(500, 'internal_error', BODY_ALREADY_READ)
  const stream = request.body!
  let reader: ReadableStreamDefaultReader<Uint8Array>
  try {
    reader = stream.getReader()
  } catch {
    // Locked by someone else: a user handler is reading it (or read it and kept the lock).
    throw new ApiError(500, 'internal_error', BODY_ALREADY_READ)
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
        const grown = new Uint8Array(Math.max(size + value.byteLength, Math.min(buffer.byteLength * 2, MAX_BODY_BYTES + 1), 1024))
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
  return new ApiError(400, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB). Send less data per request.`)
}
