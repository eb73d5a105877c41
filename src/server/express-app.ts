import { createServer } from 'node:http'
import type { Express, NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import type { Sandbox } from '../index.js'
import { corsHeaders, listenOn, preflightHeaders, type RequestLog, type RunningServer, type ServerOptions } from './http-server.js'
import { createOriginPolicy } from './origin-policy.js'

/*
 * The express 5 + @mswjs/http-middleware variant of the standalone server, kept to measure it
 * against the node:http adapter (`http-server.ts`, the default) — see docs/performance.md.
 * It is never on the start path: express and http-middleware are imported lazily, here only.
 */

/**
 * Builds the express app over a sandbox: CORS, http-middleware's `createMiddleware` over the
 * sandbox's handlers, and the API-shaped 404. No body parser: http-middleware hands the raw
 * request stream to msw, and the guard reads at most 1 MiB + 1 byte of it (the socket is closed
 * after an answer that left body bytes unread), so no input is buffered without bound.
 * The Host header is pinned to the sandbox's origin, because http-middleware builds the
 * request URL from it and the handlers match the sandbox's base URL, as the node:http adapter does.
 */
export async function createExpressApp(sandbox: Sandbox, onRequest?: (entry: RequestLog) => void): Promise<Express> {
  const [{ default: express }, { createMiddleware }] = await Promise.all([
    import('express'),
    import('@mswjs/http-middleware'),
  ])
  const host = new URL(sandbox.baseUrl).host
  // CORS as the node:http server grants it (loopback origins); the Host and Origin checks are the node:http server's only.
  const policy = createOriginPolicy()
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  app.set('trust proxy', false)
  app.use((req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, preflightHeaders(policy, req)).end()
      return
    }
    const started = performance.now()
    const path = req.url
    res.set(corsHeaders(policy, req))
    req.headers.host = host
    res.on('finish', () => {
      // The guard stopped reading a body over the limit: drop the rest with the connection.
      if (!req.complete) req.socket.destroy()
      onRequest?.({ method: req.method, path, status: res.statusCode, ms: performance.now() - started })
    })
    next()
  })
  // http-middleware is CommonJS, so it sees msw's CommonJS typings: same classes, other declarations.
  app.use(createMiddleware(...(sandbox.handlers as unknown as Parameters<typeof createMiddleware>)))
  app.use((req: ExpressRequest, res: ExpressResponse) => {
    res.status(404).json({ error: { code: 'not_found', message: `Nothing at ${req.method} ${req.path}. The API is under /v1 (for example POST /v1/email/send); sandbox controls are under /__sandbox.` } })
  })
  app.use((error: unknown, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    console.error('[sendbox] unexpected server error:', error)
    if (res.headersSent) res.destroy()
    else res.status(500).json({ error: { code: 'internal_error', message: 'Unexpected sandbox failure.' } })
  })
  return app
}

/**
 * Starts the express variant. Same options and result as `startServer` from `http-server.ts`,
 * so the benchmark (and anyone comparing) can swap one for the other.
 */
export async function startExpressServer(sandbox: Sandbox, options: ServerOptions = {}): Promise<RunningServer> {
  const app = await createExpressApp(sandbox, options.onRequest)
  return listenOn(createServer(app), options)
}
