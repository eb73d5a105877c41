import { HttpHandler, type HttpRequestParsedResult, type ResponseResolutionContext } from 'msw'

/** Decides whether a request path (as the URL spells it: percent-escapes kept) is this handler's, and with which params. */
export type PathMatcher = (pathname: string) => Record<string, string> | undefined

/** What a route's resolver gets from msw once its handler matched. */
export type MatchedResolver = (info: { request: Request; params: Record<string, string> }) => Promise<Response>

const NO_MATCH: HttpRequestParsedResult = Object.freeze({
  match: Object.freeze({ matches: false, params: {} }),
  cookies: {},
}) as HttpRequestParsedResult

/**
 * Compiles an OpenAPI-style path template (`/v1/subscribers/{id}`) into an exact matcher:
 * literal segments compare byte for byte with the request path as the URL spells it (case
 * matters, a trailing slash is another path, `sm%73` is not `sms`); a `{param}` matches one
 * non-empty segment and is percent-decoded. A segment whose escapes do not decode (`%zz`)
 * matches nothing — it is an unknown path, never an exception.
 *
 * msw's own matcher (path-to-regexp under `matchRequestUrl`) ignores case and a trailing slash,
 * which the real API does not: see docs/decisions/msw-parse.md.
 */
export function compilePath(template: string): PathMatcher {
  const parts = template.split('/')
  const names = parts.map((part) => (/^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(part) ? part.slice(1, -1) : undefined))
  if (!parts.some((_, i) => names[i] !== undefined)) return (pathname) => (pathname === template ? {} : undefined)
  return (pathname) => {
    const segments = pathname.split('/')
    if (segments.length !== parts.length) return undefined
    const params: Record<string, string> = {}
    for (let i = 0; i < parts.length; i++) {
      const name = names[i]
      if (name === undefined) {
        if (segments[i] !== parts[i]) return undefined
        continue
      }
      if (segments[i] === '') return undefined
      try {
        params[name] = decodeURIComponent(segments[i])
      } catch {
        return undefined
      }
    }
    return params
  }
}

/**
 * Builds handlers without msw's call frames. msw's `RequestHandler` constructor captures a stack
 * trace (`new Error()`) to note where the handler was declared; for the sandbox's handlers that
 * place is inside sendbox's own bundle, of no use to whoever reads it, and capturing it is ~25 µs
 * a handler: ~1 ms of every `createSandbox()`, paid once in each test file
 * (docs/decisions/suite-cost.md). `handler.info.callFrame` is undefined instead.
 */
export function withoutCallFrames<T>(build: () => T): T {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return build()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** Index of the first `?` or `#` of a URL (its length when neither). */
function endOfPath(url: string): number {
  const query = url.indexOf('?')
  const hash = url.indexOf('#')
  if (query === -1) return hash === -1 ? url.length : hash
  return hash === -1 ? query : Math.min(query, hash)
}

/**
 * An msw `HttpHandler` whose `parse` is the sandbox's own exact matcher instead of msw's.
 *
 * Two reasons. Fidelity: msw matches paths case-insensitively and ignores a trailing slash, so
 * `/v1/SMS/send` reached the endpoint (and slipped past a fault armed on `/v1/sms/send`).
 * Speed: msw's parse runs for every handler in the list, for every request — a `new URL`, the
 * cookie store and a path-to-regexp compile, ~20 µs each — and this one is a method compare, a
 * prefix compare and a split. Same info, same resolver args (`params`); `cookies` is empty
 * because the sandbox's resolvers never read them. The contract this relies on is pinned by
 * `test/api/route-matching.test.ts` and explained in docs/decisions/msw-parse.md.
 */
export class RouteHandler extends HttpHandler {
  /**
   * @param methods the methods it answers (`undefined`: any); GET routes also answer HEAD.
   * @param origin the origin requests must have (`https://api.example.com`), lower-case as URLs normalise it.
   * @param display what msw prints for this handler (a path in msw's notation).
   * @param label the route it serves, `GET https://api.example.com/v1/subscribers/{id}` (undefined for a catch-all).
   */
  constructor(
    private readonly methods: readonly string[] | undefined,
    private readonly origin: string,
    display: string,
    private readonly matchPath: PathMatcher,
    resolver: MatchedResolver,
    readonly label?: string,
  ) {
    super(methods === undefined ? /.*/ : new RegExp(`^(?:${methods.join('|')})$`), display, resolver as never)
  }

  override async parse(args: {
    request: Request
    resolutionContext?: ResponseResolutionContext
  }): Promise<HttpRequestParsedResult> {
    const { request } = args
    if (this.methods !== undefined && !this.methods.includes(request.method)) return NO_MATCH
    const url = request.url
    // A Request's URL is already WHATWG-normalised: lower-case scheme and host, default port dropped, path present.
    if (!url.startsWith(this.origin) || url.charCodeAt(this.origin.length) !== 47 /* '/' */) return NO_MATCH
    const params = this.matchPath(url.slice(this.origin.length, endOfPath(url)))
    if (params === undefined) return NO_MATCH
    return { match: { matches: true, params }, cookies: {} }
  }
}
