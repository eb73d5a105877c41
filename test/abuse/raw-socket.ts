/**
 * Raw TCP exchanges with the standalone server, for requests no HTTP client would send.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import net from 'node:net'

/** What came back on one connection. */
export interface Exchange {
  /** Everything the server sent (latin1). */
  raw: string
  /** Status of the first response, if any. */
  status: number | undefined
  /** Body of the first response, if any. */
  body: string
  /** Whether the server closed the connection before the deadline. */
  closed: boolean
  /** Milliseconds from connect until close (or the deadline). */
  ms: number
  /** Bytes this side managed to write. */
  written: number
  /** Bytes written when the first response byte arrived. */
  writtenAtResponse: number | undefined
}

/** A pause between parts of what is sent. */
export interface Pause {
  pauseMs: number
}

/**
 * Connects to 127.0.0.1:`port`, writes `parts` in order (strings, buffers, pauses; each write
 * waits for `drain`), then half-closes when `end` is set, and collects what the server sends until
 * it closes the connection or `deadlineMs` passes. With `readAfterMs`, nothing is read before then.
 */
export function exchange(
  port: number,
  parts: Array<string | Buffer | Pause>,
  options: { end?: boolean; deadlineMs: number; readAfterMs?: number },
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    if (options.readAfterMs !== undefined) {
      // A client busy elsewhere: what the server sends waits in the kernel, unread, meanwhile.
      socket.pause()
      setTimeout(() => socket.resume(), options.readAfterMs)
    }
    const started = performance.now()
    const received: Buffer[] = []
    let written = 0
    let writtenAtResponse: number | undefined
    let finished = false
    const finish = (closed: boolean) => {
      if (finished) return
      finished = true
      clearTimeout(deadline)
      socket.destroy()
      const raw = Buffer.concat(received).toString('latin1')
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1]
      const split = raw.indexOf('\r\n\r\n')
      resolve({
        raw,
        status: status ? Number(status) : undefined,
        body: split >= 0 ? raw.slice(split + 4) : '',
        closed,
        ms: performance.now() - started,
        written,
        writtenAtResponse,
      })
    }
    const deadline = setTimeout(() => finish(false), options.deadlineMs)
    socket.on('data', (chunk) => {
      writtenAtResponse ??= written
      received.push(chunk)
    })
    socket.on('close', () => finish(true))
    socket.on('error', () => undefined) // EPIPE / ECONNRESET once the server hangs up: expected
    socket.once('connect', async () => {
      for (const part of parts) {
        if (finished || socket.destroyed) return
        if (typeof part === 'object' && 'pauseMs' in part) {
          await new Promise((r) => setTimeout(r, part.pauseMs))
          continue
        }
        const ok = socket.write(part)
        written += typeof part === 'string' ? Buffer.byteLength(part, 'latin1') : part.length
        if (!ok)
          await new Promise<void>((r) => {
            socket.once('drain', r)
            socket.once('close', r)
          })
      }
      if (options.end && !socket.destroyed) socket.end()
    })
  })
}

/** Splits a string into one-byte parts separated by pauses (a slowloris client). */
export function trickle(text: string, pauseMs: number): Array<string | Pause> {
  return [...text].flatMap((char) => [char, { pauseMs }])
}

/** `count` chunks of `size` bytes (for large bodies without holding them as one buffer). */
export function chunks(count: number, size: number, fill = 0x61): Buffer[] {
  const chunk = Buffer.alloc(size, fill)
  return Array.from({ length: count }, () => chunk)
}

/**
 * How many bytes each connection of `server` had read when each answer was out, in answer order.
 * What a server reads after its answer (the bytes it drops while it lingers before closing, see
 * `closeAfterAnswer`) is not counted: this is what it read to decide.
 */
export function bytesReadAtAnswer(server: Server): number[] {
  const read: number[] = []
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    res.once('finish', () => read.push(req.socket.bytesRead))
  })
  return read
}
