/*
 * The express 5 + @mswjs/http-middleware variant of the standalone server, kept to measure it
 * against the node:http adapter (src/transports/http-server.ts, the default) — see
 * docs/performance.md. Benchmark-only: it lives here, beside its target, and runs on the built
 * library (dist/); nothing in src/ ships it.
 *
 * No body parser: http-middleware hands the raw request stream to msw, and the guard reads at
 * most 1 MiB + 1 byte of it (the socket is closed after an answer that left body bytes unread).
 * The Host header is pinned to the sandbox's origin, because http-middleware builds the request
 * URL from it and the handlers match the sandbox's base URL, as the node:http adapter does.
 */
import { createServer } from 'node:http'
import { corsHeaders, listenOn, preflightHeaders } from '../../dist/src/transports/http-server.js'
import { createOriginPolicy } from '../../dist/src/transports/origin-policy.js'

/** The express app over a sandbox: CORS, http-middleware over the sandbox's handlers, the API-shaped 404. */
export async function createExpressApp(sandbox, onRequest) {
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
  app.use((req, res, next) => {
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
  app.use(createMiddleware(...sandbox.handlers))
  app.use((req, res) => {
    res.status(404).json({
      error: {
        code: 'not_found',
        message: `Nothing at ${req.method} ${req.path}. The API is under /v1 (for example POST /v1/email/send); sandbox controls are under /__sandbox.`,
      },
    })
  })
  app.use((error, _req, res, _next) => {
    console.error('[sendbox] unexpected server error:', error)
    if (res.headersSent) res.destroy()
    else res.status(500).json({ error: { code: 'internal_error', message: 'Unexpected sandbox failure.' } })
  })
  return app
}

/** Starts the express variant: same options and result as `startServer`. */
export async function startExpressServer(sandbox, options = {}) {
  const app = await createExpressApp(sandbox, options.onRequest)
  return listenOn(createServer(app), options)
}
