/** Reading a request body on node:http: capped, in one buffer, and cheap when it came with its headers. */
import type { IncomingMessage } from 'node:http'
import { MAX_BODY_BYTES } from '../http/body.js'

/** The body of a request that has none. */
export const NO_BODY = new Uint8Array(0)

/** Bytes the server reads of a body before it stops: one more than the API accepts. */
export const BODY_READ_CAP = MAX_BODY_BYTES + 1

/** First allocation of a body buffer when the length is not announced; doubled as bytes arrive. */
const BODY_FIRST_ALLOCATION = 16 * 1024

/**
 * Pieces (socket reads or chunks of a chunked body) a body may arrive in. Each piece costs the
 * event loop ~3 µs whatever its size, so 1 MiB sent as 1-byte chunks held it ~3 s; 65,536 pieces
 * is 16 bytes a piece on average at the 1 MiB cap, far below what any client sends.
 */
export const MAX_BODY_PIECES = 65_536

/** What reading a body gave: the bytes, whether it stopped at the cap or at {@link MAX_BODY_PIECES}, whether the client went away. */
export interface BodyRead {
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
export async function readBody(req: IncomingMessage): Promise<BodyRead> {
  // A body that came with its headers (most do) is parsed in the same pass as they were, right
  // after the 'request' event: one microtask later all its announced bytes sit in the request's
  // buffer (node:http runs microtasks after pushing the body, before marking the message complete).
  // Taken from there at once, without the four listeners and the stream's flowing-mode ticks.
  await undefined
  if (
    req.readableFlowing === null &&
    !req.destroyed &&
    req.readableLength < BODY_READ_CAP &&
    (req.complete || wholeByLength(req))
  ) {
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
    let buffer = Buffer.allocUnsafe(
      Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, BODY_READ_CAP) : BODY_FIRST_ALLOCATION,
    )
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

/** True when the request announces a body (Content-Length > 0 or chunked). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined
}
