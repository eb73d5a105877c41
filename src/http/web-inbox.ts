import { http, type HttpHandler } from 'msw'
import type { SandboxState } from '../domain/sandbox.js'
import { isBuffered, type WireRequest } from './body.js'
import { resolveBaseUrl } from './base-url.js'
import { importWebAssets, type WebAssets } from './web-assets.js'

/** Where the web inbox lives, origin-relative. */
export const WEB_INBOX_PATH = '/__sandbox/ui/'

/**
 * The page's own policy: its scripts and styles from the sandbox only (no inline script), API
 * calls to the same origin, the email preview iframe from the same origin (the iframe is
 * sandboxed and the preview answer has its own CSP), never framed itself.
 */
export const WEB_INBOX_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': WEB_INBOX_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

let loading: Promise<WebAssets | undefined> | undefined

function notFound(message: string): Response {
  return new Response(JSON.stringify({ error: { code: 'not_found', message } }), {
    status: 404,
    headers: { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' },
  })
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } })
}

/**
 * The web inbox: its bundled files under `<origin>/__sandbox/ui/`, and, on the standalone server,
 * `GET <origin>/` redirecting there. Registered before the catch-alls, so without the admin
 * guard: the page itself holds no data (it asks for the admin token when the API needs one).
 *
 * `/` is only redirected for requests that came through the standalone server (which hands the
 * guard each request's bytes, see `isBuffered`) and when the API does not live at the root: in
 * process, the origin's `/` is the application's own (a page under setupWorker, say), never ours.
 * @example setupServer(...webInboxHandlers(sandbox), ...otherHandlers)
 */
export function webInboxHandlers(sandbox: SandboxState, inbox: WebInbox = webInbox(sandbox)): HttpHandler[] {
  return [
    // A predicate rather than paths: msw's matcher treats `/__sandbox/ui` and `/__sandbox/ui/` alike. GET and HEAD.
    http.all(
      ({ request }) => inbox.claims(request),
      ({ request }) => inbox.answer(request, new URL(request.url)),
    ),
  ]
}

/** The web inbox as a predicate and an answer: {@link webInboxHandlers} under msw, the standalone server's dispatcher directly. */
export interface WebInbox {
  claims(request: WireRequest): boolean
  answer(request: WireRequest, url: URL): Promise<Response>
}

/** The web inbox of a sandbox (see {@link WebInbox}). */
export function webInbox(sandbox: SandboxState): WebInbox {
  const { origin, basePath } = resolveBaseUrl(sandbox.baseUrl)
  return {
    // String tests only: this runs for every request that reaches it (the API's unknown paths too).
    claims(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false
      const url = request.url
      if (!url.startsWith(origin) || url.charCodeAt(origin.length) !== 47 /* '/' */) return false
      const path = url.slice(origin.length).replace(/[?#].*$/s, '')
      if (path === '/') return basePath !== '' && isBuffered(request)
      return path === '/__sandbox/ui' || path.startsWith(WEB_INBOX_PATH)
    },
    async answer(request, { pathname }) {
      if (!pathname.startsWith(WEB_INBOX_PATH)) return redirect(WEB_INBOX_PATH)
      const name = pathname.slice(WEB_INBOX_PATH.length) || 'index.html'
      const assets = await (loading ??= importWebAssets().catch((error: unknown) => {
        loading = undefined
        throw error
      }))
      if (!assets)
        return notFound(
          'The web inbox is not built here: run `npm run build` (it is served by the standalone server, `npx sendbox`).',
        )
      const asset = Object.hasOwn(assets, name) ? assets[name] : undefined
      if (!asset) return notFound(`No web inbox file "${name.slice(0, 100)}". The inbox is at ${WEB_INBOX_PATH}.`)
      const headers = { ...SECURITY_HEADERS, 'Content-Type': asset.type, ETag: asset.etag, 'Cache-Control': 'no-cache' }
      if (request.headers.get('if-none-match') === asset.etag) return new Response(null, { status: 304, headers })
      return new Response(request.method === 'HEAD' ? null : asset.body, { status: 200, headers })
    },
  }
}
