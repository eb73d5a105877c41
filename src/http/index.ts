import { getResponse, type HttpHandler, type RequestHandler } from 'msw'
import type { SandboxState } from '../domain/sandbox.js'
import {
  attachBufferedBody,
  bufferedBodyOf,
  fetchHeaders,
  RawHeaders,
  toResponse,
  type Answer,
  type WireRequest,
} from './body.js'
import { runApiRequest } from './guard.js'
import { runControlRequest } from './control-guard.js'
import type { Route } from './route.js'
import { compilePath, RouteHandler, withoutCallFrames, type PathMatcher } from './route-handler.js'
import { ROUTES } from './routes.js'
import { CONTROLS_PREFIX, controlPrefixes, resolveBaseUrl, type ResolvedBase } from './base-url.js'
import { webInbox, webInboxHandlers, type WebInbox } from './web-inbox.js'

export { CONTROLS_PREFIX, isControlPath, resolveBaseUrl, type ResolvedBase } from './base-url.js'

/**
 * True when a path lies in a tree, ignoring case: the catch-alls claim `/V1/...` and
 * `/__SANDBOX/...` too, so that a miscased path is answered as the unknown path it is (401
 * without a key, else 404) rather than left to whatever else runs on the origin.
 */
function underPrefix(pathname: string, prefix: string): boolean {
  if (pathname.length < prefix.length) return false
  const head = pathname.slice(0, prefix.length)
  return (
    (head === prefix || head.toLowerCase() === prefix.toLowerCase()) &&
    (pathname.length === prefix.length || pathname.charCodeAt(prefix.length) === 47) /* '/' */
  )
}

/** The exact matcher of a route: under the base path for the API; at the origin and under the base path for a control. */
function matcherOf(route: Route, base: ResolvedBase): PathMatcher {
  const matchers = fullPathsOf(route, base).map(compilePath)
  return matchers.length === 1 ? matchers[0] : (pathname) => matchers[0](pathname) ?? matchers[1](pathname)
}

/** The path templates a route answers at: under the base path for the API; at the origin and under the base path for a control. */
function fullPathsOf(route: Route, base: ResolvedBase): string[] {
  if (route.scope === 'api') return [base.basePath + route.path]
  return controlPrefixes(base).map((prefix) => prefix + route.path.slice(CONTROLS_PREFIX.length))
}

/** msw's display notation of a route (`https://api.example.com/v1/subscribers/:id`). */
function displayOf(route: Route, base: ResolvedBase): string {
  const path = route.scope === 'api' ? base.basePath + route.path : route.path
  return base.origin + path.replace(/\{([^}]+)\}/g, ':$1')
}

/** One way in: the methods it answers (undefined: any), its exact path matcher, and what runs. */
interface Entry {
  methods: readonly string[] | undefined
  match: PathMatcher
  /** Synchronous when nothing on the way waited (see runApiRequest). */
  run: (request: WireRequest, url: URL, params: Record<string, string>) => Answer | Promise<Answer>
  /** What msw prints for it. */
  display: string
  label?: string
}

/**
 * The sandbox's ways in, in order, read off the route table: one per route, then the /__sandbox
 * catch-all (admin guard, then 404) and the API catch-all (guards, then 404 — so an unknown path
 * without a key is 401). Paths match exactly; no two entries claim one request. Both the MSW
 * handlers ({@link createHandlers}) and the standalone server's dispatcher
 * ({@link createDispatcher}) are made from this one list.
 */
function entriesOf(sandbox: SandboxState, base: ResolvedBase): { routes: Entry[]; catchAlls: Entry[] } {
  const prefixes = controlPrefixes(base)
  const matchers = ROUTES.map((route) => matcherOf(route, base))
  const routes: Entry[] = ROUTES.map((route, i) => {
    const run = route.scope === 'api' ? runApiRequest : runControlRequest
    // A literal path wins over a template of the same method: `/messages/wait` is not `/messages/{id}`.
    // (A literal matches only its own text: one Set lookup instead of a call per literal route.)
    const literals = new Set(
      route.path.includes('{')
        ? ROUTES.filter((other) => other.method === route.method && !other.path.includes('{')).flatMap((other) =>
            fullPathsOf(other, base),
          )
        : [],
    )
    const own = matchers[i]
    return {
      methods: route.method === 'GET' ? ['GET', 'HEAD'] : [route.method],
      match: literals.size === 0 ? own : (pathname) => (literals.has(pathname) ? undefined : own(pathname)),
      run: (request, url, params) => run(sandbox, request, url, params, route),
      display: displayOf(route, base),
      label: `${route.method} ${base.origin}${route.scope === 'api' ? base.basePath : ''}${route.path}`,
    }
  })
  const isControlPath = (pathname: string) => prefixes.some((prefix) => underPrefix(pathname, prefix))
  const catchAlls: Entry[] = [
    {
      methods: undefined,
      match: (pathname) => (isControlPath(pathname) ? {} : undefined),
      run: (request, url) => runControlRequest(sandbox, request, url, {}, undefined),
      display: `${base.origin}${CONTROLS_PREFIX}/*`,
    },
    {
      methods: undefined,
      match: (pathname) =>
        (base.basePath === '' || underPrefix(pathname, base.basePath)) && !isControlPath(pathname) ? {} : undefined,
      run: (request, url) => runApiRequest(sandbox, request, url, {}, undefined),
      display: `${base.origin}${base.basePath}/*`,
    },
  ]
  return { routes, catchAlls }
}

/**
 * Every MSW request handler of a sandbox: one per route, the web inbox, then the two catch-alls
 * (see {@link entriesOf}).
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
  const { routes, catchAlls } = entriesOf(sandbox, base)
  const inbox = webInbox(sandbox)
  const handlerOf = (entry: Entry) =>
    new RouteHandler(
      entry.methods,
      base.origin,
      entry.display,
      entry.match,
      async ({ request, params }) => toResponse(await entry.run(request, new URL(request.url), params), request),
      entry.label,
    )
  const handlers = withoutCallFrames(() => [
    ...routes.map(handlerOf),
    ...webInboxHandlers(sandbox, inbox), // `/` and `/__sandbox/ui/`: before the catch-alls, so no admin guard (the page holds no data)
    ...catchAlls.map(handlerOf),
  ])
  built.set(sandbox, { handlers: handlers.slice(), base, routes, catchAlls, inbox })
  return handlers
}

/**
 * What {@link createHandlers} made for each sandbox: its handlers as made (the dispatcher stands
 * for exactly these) and the entries and web inbox behind them, which the dispatcher runs.
 */
const built = new WeakMap<
  SandboxState,
  { handlers: readonly RequestHandler[]; base: ResolvedBase; routes: Entry[]; catchAlls: Entry[]; inbox: WebInbox }
>()

/** True while a handler list is exactly the one built (same handlers, same order): nobody added, removed or reordered one. */
function unchanged(handlers: readonly RequestHandler[], original: readonly RequestHandler[]): boolean {
  if (handlers.length !== original.length) return false
  for (let i = 0; i < handlers.length; i++) if (handlers[i] !== original[i]) return false
  return true
}

/**
 * Answers one request the way {@link createHandlers}' handlers would under msw's `getResponse`,
 * without msw and without Fetch objects: the standalone server's way in. `url` is
 * `request.url` parsed; the transport attaches the body it read (`attachBufferedBody`). Undefined
 * (or a promise of it) when no handler would match (another origin); the answer itself, not a
 * promise of it, when nothing on its way waited.
 */
export type Dispatch = (request: WireRequest, url: URL) => Answer | Promise<Answer | undefined> | undefined

/**
 * The dispatcher of a sandbox: the same entries, in the same order, as its MSW handlers. While
 * `sandbox.handlers` is the list {@link createHandlers} built, it runs them directly; when a user
 * (or a test) has put handlers of their own in that list, it runs the whole list through msw's
 * `getResponse`, as a Fetch Request, so theirs answer exactly as under `setupServer`.
 */
export function createDispatcher(sandbox: SandboxState & { readonly handlers: readonly RequestHandler[] }): Dispatch {
  const own = built.get(sandbox)
  if (own === undefined) return (request) => throughMsw(sandbox.handlers, request)
  const { base, routes, catchAlls, inbox } = own
  const find = (entries: Entry[], method: string, pathname: string): [Entry, Record<string, string>] | undefined => {
    for (const entry of entries) {
      if (entry.methods !== undefined && !entry.methods.includes(method)) continue
      const params = entry.match(pathname)
      if (params !== undefined) return [entry, params]
    }
    return undefined
  }
  return (request, url) => {
    if (!unchanged(sandbox.handlers, own.handlers)) return throughMsw(sandbox.handlers, request)
    if (url.origin !== base.origin) return undefined
    const { method } = request
    const found = find(routes, method, url.pathname)
    if (found) return found[0].run(request, url, found[1])
    if (inbox.claims(request)) return inbox.answer(request, url)
    const fallback = find(catchAlls, method, url.pathname)
    return fallback?.[0].run(request, url, fallback[1])
  }
}

/** A request through msw's `getResponse` over a handler list, as a Fetch Request whose body the transport read (see attachBufferedBody). */
async function throughMsw(handlers: readonly RequestHandler[], request: WireRequest): Promise<Answer | undefined> {
  const headers = fetchHeaders(request.headers instanceof RawHeaders ? request.headers.pairs : [])
  const fetchRequest = new Request(request.url, { method: request.method, headers, signal: request.signal })
  attachBufferedBody(fetchRequest, bufferedBodyOf(request) ?? new Uint8Array(0))
  return getResponse(handlers as RequestHandler[], fetchRequest)
}
