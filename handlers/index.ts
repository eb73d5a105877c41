import type { HttpHandler } from 'msw'
import type { SandboxState } from '../src/domain/sandbox.js'
import { runApiRequest, runControlRequest } from './guard.js'
import type { Route } from './route.js'
import { compilePath, RouteHandler, type PathMatcher } from './route-handler.js'
import { ROUTES } from './routes.js'
import { webInboxHandlers } from './web-inbox.js'

/** Where the sandbox's controls live, besides the origin's `/__sandbox`. */
export const CONTROLS_PREFIX = '/__sandbox'

/** The base URL split the way the handlers match it. */
export interface ResolvedBase {
  /** `https://api.example.com` (lower-case, default port dropped, as a Request's URL spells it). */
  origin: string
  /** The base path without a trailing slash: `/v1`, or `''` for a base URL without a path. */
  basePath: string
}

/**
 * Resolves a sandbox's base URL. A relative one (`/api/v1`) resolves against the page in a
 * browser (`setupWorker`, whose requests carry the page's origin); in Node there is no page, and
 * msw's `setupServer` never resolves relative URLs, so it is a clear error rather than `Invalid URL`.
 */
export function resolveBaseUrl(baseUrl: string): ResolvedBase {
  let absolute = baseUrl
  if (baseUrl.startsWith('/')) {
    const page = (globalThis as { location?: { origin?: string } }).location?.origin
    if (typeof page !== 'string' || page === 'null') {
      throw new TypeError(`baseUrl "${baseUrl}" is relative. Relative base URLs work in a browser (setupWorker), where they resolve against the page's origin; in Node (setupServer, the standalone server) give an absolute URL, like "http://localhost${baseUrl}".`)
    }
    absolute = page + baseUrl
  }
  let url: URL
  try {
    url = new URL(absolute)
  } catch {
    throw new TypeError(`baseUrl "${baseUrl}" is not a URL. Give an absolute URL such as "https://api.example.com/v1" (or, in a browser, a path such as "/api/v1").`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl "${baseUrl}" must be an http(s) URL.`)
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') }
}

/** `/__sandbox` and everything under it, at the origin and under the base path. */
function controlPrefixes(base: ResolvedBase): string[] {
  return base.basePath === '' ? [CONTROLS_PREFIX] : [CONTROLS_PREFIX, base.basePath + CONTROLS_PREFIX]
}

/**
 * True when a path lies in a tree, ignoring case: the catch-alls claim `/V1/...` and
 * `/__SANDBOX/...` too, so that a miscased path is answered as the unknown path it is (401
 * without a key, else 404) rather than left to whatever else runs on the origin.
 */
function underPrefix(pathname: string, prefix: string): boolean {
  if (pathname.length < prefix.length) return false
  const head = pathname.slice(0, prefix.length)
  return (head === prefix || head.toLowerCase() === prefix.toLowerCase()) && (pathname.length === prefix.length || pathname.charCodeAt(prefix.length) === 47 /* '/' */)
}

/** The exact matcher of a route: under the base path for the API; at the origin and under the base path for a control. */
function matcherOf(route: Route, base: ResolvedBase): PathMatcher {
  if (route.scope === 'api') return compilePath(base.basePath + route.path)
  const matchers = controlPrefixes(base).map((prefix) => compilePath(prefix + route.path.slice(CONTROLS_PREFIX.length)))
  return matchers.length === 1 ? matchers[0] : (pathname) => matchers[0](pathname) ?? matchers[1](pathname)
}

/** msw's display notation of a route (`https://api.example.com/v1/subscribers/:id`). */
function displayOf(route: Route, base: ResolvedBase): string {
  const path = route.scope === 'api' ? base.basePath + route.path : route.path
  return base.origin + path.replace(/\{([^}]+)\}/g, ':$1')
}

/**
 * Every MSW request handler of a sandbox, read off the route table: one per route, then the
 * /__sandbox catch-all (admin guard, then 404) and the API catch-all (guards, then 404 — so an
 * unknown path without a key is 401). Paths match exactly; no two handlers claim one request.
 *
 * Where the controls answer: at `<origin>/__sandbox/...` and, when the base URL has a path, at
 * `<baseUrl>/__sandbox/...` too. The second form is always this sandbox's own, so several
 * sandboxes on one origin (`/v1` and `/v2`) each keep theirs (the origin's `/__sandbox` is
 * answered by whichever sandbox's handlers come first). When the base URL has no path, the API
 * catch-all leaves `/__sandbox` to the controls. The catch-alls ignore case (`/V1/x` is an
 * unknown API path, answered after the guards); the routes never do.
 */
export function createHandlers(sandbox: SandboxState): HttpHandler[] {
  const base = resolveBaseUrl(sandbox.baseUrl)
  const prefixes = controlPrefixes(base)
  const matchers = ROUTES.map((route) => matcherOf(route, base))
  const handlers: HttpHandler[] = ROUTES.map((route, i) => {
    const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]
    const run = route.scope === 'api' ? runApiRequest : runControlRequest
    const label = `${route.method} ${base.origin}${route.scope === 'api' ? base.basePath : ''}${route.path}`
    // A literal path wins over a template of the same method: `/messages/wait` is not `/messages/{id}`.
    const literals = route.path.includes('{')
      ? matchers.filter((_, j) => ROUTES[j].method === route.method && !ROUTES[j].path.includes('{'))
      : []
    const own = matchers[i]
    const match: PathMatcher = literals.length === 0 ? own : (pathname) => (literals.some((literal) => literal(pathname) !== undefined) ? undefined : own(pathname))
    return new RouteHandler(methods, base.origin, displayOf(route, base), match, ({ request, params }) => run(sandbox, request, params, route), label)
  })
  const isControlPath = (pathname: string) => prefixes.some((prefix) => underPrefix(pathname, prefix))
  handlers.push(
    ...webInboxHandlers(sandbox), // `/` and `/__sandbox/ui/`: before the catch-alls, so no admin guard (the page holds no data)
    new RouteHandler(undefined, base.origin, `${base.origin}${CONTROLS_PREFIX}/*`, (pathname) => (isControlPath(pathname) ? {} : undefined), ({ request }) => runControlRequest(sandbox, request, {}, undefined)),
    new RouteHandler(
      undefined,
      base.origin,
      `${base.origin}${base.basePath}/*`,
      (pathname) => ((base.basePath === '' || underPrefix(pathname, base.basePath)) && !isControlPath(pathname) ? {} : undefined),
      ({ request }) => runApiRequest(sandbox, request, {}, undefined),
    ),
  )
  return handlers
}

export { ROUTES } from './routes.js'
