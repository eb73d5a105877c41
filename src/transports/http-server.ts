import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Dispatch } from '../http/index.js'
import { closeScreenshots } from '../http/screenshot-route.js'
import type { Sandbox } from '../index.js'
import { defaultOf, SETTINGS } from '../contract/settings.js'
import { corsHeaders, pipelinedAfterClose, rawErrorAnswer, refuse } from './answer-write.js'
import { createOriginPolicy, type OriginPolicy } from './origin-policy.js'
import { createRequestListener, type RequestLog } from './request-listener.js'

export { corsHeaders, LINGER_MS, preflightHeaders } from './answer-write.js'
export { createRequestListener, type ListenerOptions, type RequestLog } from './request-listener.js'

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
export async function startServer(sandbox: Sandbox, options: ServerOptions = {}): Promise<RunningServer> {
  const policy = createOriginPolicy({
    corsOrigins: options.corsOrigins,
    allowedHosts: options.allowedHosts,
    boundHost: options.host ?? SETTINGS.host.default,
  })
  const listener = createRequestListener(sandbox, { onRequest: options.onRequest, policy, dispatch: options.dispatch })
  const timeouts = options.timeouts ?? {}
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs ?? 10_000,
      requestTimeout: timeouts.requestMs ?? 30_000,
      keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
      connectionsCheckingInterval: timeouts.checkIntervalMs ?? 1_000,
      // Node's own answer to a missing Host is an empty 400; the listener answers with the error object.
      requireHostHeader: false,
    },
    (req, res) => {
      // Draining: a request that still arrives on an open keep-alive connection is answered, then the connection closes.
      if (closing) res.setHeader('Connection', 'close')
      void listener(req, res)
    },
  )
  let closing = false
  // A client may half-close after its request and still read the answer (RFC 9112: "a half-closed
  // TCP connection does not delimit a request message, nor does it imply that the client is no
  // longer interested in a response"). Node's default aborts the request instead, so a delayed
  // answer (`Prefer: delay`, a fault's delay) was never sent. Undocumented but long-standing
  // (kept by nodejs/node#36819 because userland uses it).
  ;(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  answerBelowTheListener(server, policy, options)
  const running = await listenOn(server, options, () => {
    closing = true
  })
  // The screenshot route's browser, if one was started, stops with the server.
  return { ...running, close: () => running.close().then(() => closeScreenshots(sandbox)) }
}

/** What never reaches the request listener (an unknown `Expect`, CONNECT, a malformed request) still gets the API's error object. */
function answerBelowTheListener(server: Server, policy: OriginPolicy, options: ServerOptions): void {
  // Node answers an unknown `Expect` with an empty 417 (not in the API's status list) unless asked.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (pipelinedAfterClose(req)) return
    const started = performance.now()
    const status = refuse(
      res,
      'invalid_request',
      `Unsupported \`Expect: ${String(req.headers.expect).slice(0, 100)}\`; only \`Expect: 100-continue\` is understood.`,
      corsHeaders(policy, req),
      true,
    )
    options.onRequest?.({ method: req.method ?? '?', path: req.url ?? '/', status, ms: performance.now() - started })
  })
  // CONNECT never reaches the request listener: without this Node closes the socket silently.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    rawErrorAnswer(
      socket,
      'The CONNECT method is not supported: this is not a proxy. The API uses GET, POST, PUT and DELETE.',
    )
    options.onRequest?.({ method: 'CONNECT', path: req.url ?? '', status: 400, ms: 0 })
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy()
    // Still the API's error object (and a documented status), even below HTTP.
    rawErrorAnswer(
      socket as Socket,
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 'The request line and headers are larger than the server accepts (16 KiB). Send a shorter URL or fewer headers.'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'The request took too long to arrive; the connection is closed.'
          : 'Malformed HTTP request; the connection is closed.',
    )
  })
}

/**
 * Requests of a connection not yet answered (pipelined ones count too). A count on the socket,
 * not a Set of busy sockets: adding and deleting a socket per request churned the Set's hash
 * table, and each table lived long enough to be promoted to the old generation.
 */
const IN_FLIGHT = Symbol('sendbox.inFlight')
type CountedSocket = Socket & { [IN_FLIGHT]?: number }

/** The server's open connections, each counting its requests in flight. */
function trackSockets(server: Server): Set<Socket> {
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
  return sockets
}

/** How long a connection that has carried no request yet is kept, at close, for one already on its way. */
const FRESH_GRACE_MS = 250

/**
 * Ends idle connections (FIN) and resolves when their clients have closed them too, or after `ms`.
 * A connection that has carried no request yet may hold one sent before the close and not yet
 * read (ending it at once dropped that request unanswered: the client saw its socket close): it
 * is ended after {@link FRESH_GRACE_MS} unless a request arrived, which is then answered with
 * `Connection: close` like any other in flight.
 */
function endIdleSockets(sockets: Set<Socket>, ms: number): Promise<unknown> {
  const idle = [...sockets].filter((socket: CountedSocket) => (socket[IN_FLIGHT] ?? 0) === 0)
  return Promise.all(
    idle.map(
      (socket: CountedSocket) =>
        new Promise<void>((closed) => {
          let timer: ReturnType<typeof setTimeout> | undefined
          socket.once('close', () => {
            clearTimeout(timer)
            closed()
          })
          const end = () => {
            timer = setTimeout(() => socket.destroy(), ms)
            socket.end()
          }
          if (socket[IN_FLIGHT] !== undefined) return end()
          setTimeout(() => {
            if (socket.destroyed) return // closed meanwhile: its 'close' settled this
            if ((socket[IN_FLIGHT] ?? 0) === 0) end()
            else closed()
          }, FRESH_GRACE_MS)
        }),
    ),
  )
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
  const host = options.host ?? SETTINGS.host.default
  const sockets = trackSockets(server)
  const endIdle = (ms: number) => endIdleSockets(sockets, ms)
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? defaultOf('port'), host, () => {
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
