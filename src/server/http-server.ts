import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { getResponse } from 'msw'
import { answerTextOf, attachBufferedBody } from '../../handlers/guard.js'
import type { Sandbox } from '../index.js'

/** The body of a request that has none. */
const NO_BODY = new Uint8Array(0)

/** Bytes the server reads of a body before it stops: one more than the API accepts. */
const BODY_READ_CAP = 1024 * 1024 + 1

/** Headers on every answer: any origin may call the sandbox and read its rate-limit headers. */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
}

/** The answer to a CORS preflight (204, no auth). */
export const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Prefer',
  'Access-Control-Max-Age': '600',
}

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

/**
 * Reads at most {@link BODY_READ_CAP} bytes. Past that it stops reading and reports `overflow`:
 * the handlers answer `payload_too_large` from the bytes they got, and the connection is closed
 * after the answer, so an endless body is never buffered.
 */
function readBody(req: IncomingMessage): Promise<{ body: Buffer; overflow: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (overflow: boolean) => {
      if (done) return
      done = true
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      resolve({ body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), overflow })
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      chunks.push(chunk)
      if (size >= BODY_READ_CAP) {
        req.pause()
        finish(true)
      }
    }
    const onEnd = () => finish(false)
    const onError = (error: Error) => {
      if (!done) {
        done = true
        reject(error)
      }
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1])
    } catch {
      // A header value fetch's Headers refuses (control characters): drop it, as a proxy would.
    }
  }
  return headers
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...extra })
  res.end(text)
}

/**
 * The request listener: node:http in, msw's public `getResponse` over the sandbox's handlers,
 * node:http out. No body parser, no framework: the bytes are read once (capped) and handed to
 * the guard beside the request; the answer's JSON text is written as the guard made it.
 */
export function createRequestListener(sandbox: Sandbox, onRequest?: (entry: RequestLog) => void) {
  const origin = new URL(sandbox.baseUrl).origin
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now()
    const method = req.method ?? 'GET'
    const path = req.url ?? '/'
    let status = 500
    let aborted = false
    try {
      if (method === 'OPTIONS') {
        res.writeHead(204, PREFLIGHT_HEADERS)
        res.end()
        status = 204
        return
      }
      const hasBody = method !== 'GET' && method !== 'HEAD'
      const { body, overflow } = hasBody ? await readBody(req) : { body: undefined, overflow: false }
      if (!path.startsWith('/')) {
        status = 404
        sendJson(res, 404, { error: { code: 'not_found', message: 'Request target must be a path.' } })
        return
      }
      // The body goes to the guard beside the request, not as a stream inside it (see attachBufferedBody).
      const request = new Request(origin + path, { method, headers: toHeaders(req) })
      attachBufferedBody(request, hasBody ? body! : NO_BODY)
      const response = await getResponse(sandbox.handlers, request)
      if (!response) {
        status = 404
        sendJson(res, 404, { error: { code: 'not_found', message: `Nothing at ${method} ${path.split('?')[0]}. The API is under /v1 (for example POST /v1/email/send); sandbox controls are under /__sandbox.` } })
        return
      }
      status = response.status
      const headers: Record<string, string> = { ...CORS_HEADERS }
      response.headers.forEach((value, name) => {
        headers[name] = value
      })
      const text = answerTextOf(response)
      const payload = text ?? Buffer.from(await response.arrayBuffer())
      headers['content-length'] = String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length)
      if (overflow) headers.connection = 'close'
      res.writeHead(status, headers)
      res.end(payload)
      if (overflow) res.on('finish', () => req.socket.destroy())
    } catch (error) {
      if (req.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        // The client went away mid-request (truncated body, reset): nothing to answer, no sandbox bug.
        aborted = true
        res.destroy()
        return
      }
      status = 500
      console.error('[sendbox] unexpected server error:', error)
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'internal_error', message: 'Unexpected sandbox failure.' } })
      else res.destroy()
    } finally {
      if (!aborted) onRequest?.({ method, path, status, ms: performance.now() - started })
    }
  }
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
  const listener = createRequestListener(sandbox, options.onRequest)
  const timeouts = options.timeouts ?? {}
  const server = createServer({
    headersTimeout: timeouts.headersMs ?? 10_000,
    requestTimeout: timeouts.requestMs ?? 30_000,
    keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
    connectionsCheckingInterval: timeouts.checkIntervalMs ?? 1_000,
  }, (req, res) => {
    // Draining: a request that still arrives on an open keep-alive connection is answered, then the connection closes.
    if (closing) res.setHeader('Connection', 'close')
    void listener(req, res)
  })
  let closing = false
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy()
    // Still the API's error object (and a documented status), even below HTTP.
    const message = error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request line and headers are larger than the server accepts (16 KiB). Send a shorter URL or fewer headers.'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request took too long to arrive; the connection is closed.'
        : 'Malformed HTTP request; the connection is closed.'
    const body = JSON.stringify({ error: { code: 'invalid_request', message } })
    socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  })
  return listenOn(server, options, () => {
    closing = true
  })
}

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
  const busy = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => {
      sockets.delete(socket)
      busy.delete(socket)
    })
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    busy.add(req.socket)
    res.once('close', () => busy.delete(req.socket))
  })
  /** Ends idle connections (FIN) and resolves when their clients have closed them too, or after `ms`. */
  const endIdle = (ms: number) => {
    const idle = [...sockets].filter((socket) => !busy.has(socket))
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
