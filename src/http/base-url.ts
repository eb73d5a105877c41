/**
 * The sandbox's base URL as the handlers match it: a module of its own, since both the handler
 * factory (handlers/index.ts) and the web inbox's handlers read it.
 */

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
      throw new TypeError(
        `baseUrl "${baseUrl}" is relative. Relative base URLs work in a browser (setupWorker), where they resolve against the page's origin; in Node (setupServer, the standalone server) give an absolute URL, like "http://localhost${baseUrl}".`,
      )
    }
    absolute = page + baseUrl
  }
  let url: URL
  try {
    url = new URL(absolute)
  } catch {
    throw new TypeError(
      `baseUrl "${baseUrl}" is not a URL. Give an absolute URL such as "https://api.example.com/v1" (or, in a browser, a path such as "/api/v1").`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl "${baseUrl}" must be an http(s) URL.`)
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') }
}

/** Where the sandbox's controls live: at the origin, and under the base path too (`/v1/__sandbox`). */
export const CONTROLS_PREFIX = '/__sandbox'

/** `/__sandbox` and everything under it, at the origin and under the base path. */
export function controlPrefixes(base: ResolvedBase): string[] {
  return base.basePath === '' ? [CONTROLS_PREFIX] : [CONTROLS_PREFIX, base.basePath + CONTROLS_PREFIX]
}

/**
 * True for a path of the sandbox controls in either form (`/__sandbox/reset`,
 * `/v1/__sandbox/reset`): both get the same origin policy, body handling and admin guard.
 */
export function isControlPath(base: ResolvedBase, pathname: string): boolean {
  return controlPrefixes(base).some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
}
