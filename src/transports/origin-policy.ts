/*
 * Which browsers and which Host names may talk to the standalone server (issue 11). Pure: no
 * node:http, so it is unit-tested without sockets (`origin-policy.test.ts`). The model is the
 * 2025 hardening of dev servers: Vite (CVE-2025-24010: CORS limited to localhost, `allowedHosts`),
 * webpack-dev-server (CVE-2025-30359/30360: Origin checks), Next.js `allowedDevOrigins`.
 */

import { boundedMemo } from '../domain/bounded-memo.js'

/** Options of the policy, from `startServer` (and the CLI's `--cors-origin`, `--allowed-host`). */
export interface OriginPolicyOptions {
  /** Origins granted CORS besides loopback ones (`http://app.test:3000`), or `*` for any. */
  corsOrigins?: readonly string[]
  /** Host names the `Host` header may carry besides loopback names and IP literals; `.example.test` also admits its subdomains. */
  allowedHosts?: readonly string[]
  /** The host the server is bound to (`127.0.0.1`, `0.0.0.0`, `my-box.lan`): always a valid Host. */
  boundHost?: string
}

/** The decisions the transport asks for, per request. */
export interface OriginPolicy {
  /** True when `*` was given: every origin gets the CORS grant. */
  readonly wildcard: boolean
  /**
   * Whether a browser page of `origin` (the `Origin` header) may read answers and change state.
   * `host` is the request's `Host` header: a same-origin page of an allowed host is allowed.
   */
  allowsOrigin(origin: string, host?: string): boolean
  /** The `Access-Control-Allow-Origin` value for this request, or undefined for no grant. */
  corsOriginFor(origin: string | undefined, host?: string): string | undefined
  /** Whether the `Host` header names this server (DNS rebinding defence); a missing one is the caller's business. */
  allowsHost(host: string): boolean
}

/** Headers a browser may send on a cross-origin request (answer to a preflight). */
export const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, Prefer, X-Sendbox-Admin-Token'
/** Answer headers a cross-origin page may read. */
export const EXPOSED_HEADERS = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset'
/** Methods a preflight grants. */
export const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS'

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

function isIpv4(hostname: string): boolean {
  const match = IPV4.exec(hostname)
  return match !== null && match.slice(1).every((part) => Number(part) <= 255)
}

/** `[::1]` and other bracketed IPv6 literals, as URL and the Host header write them. */
function isIpv6Literal(hostname: string): boolean {
  return hostname.startsWith('[') && hostname.endsWith(']') && /^[0-9a-f:.]+$/i.test(hostname.slice(1, -1))
}

/**
 * True for a host name that can only mean this machine: `localhost`, `*.localhost`, `127.0.0.0/8`,
 * `[::1]` (and `::1` unbracketed), IPv4-mapped loopback (`[::ffff:7f00:1]`). Case-insensitive,
 * a trailing dot ignored.
 *
 * @example
 * isLoopbackHostname('app.localhost') // true
 * isLoopbackHostname('localhost.evil.test') // false
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (isIpv4(name)) return name.startsWith('127.')
  const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name
  if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true
  return /^::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.test(bare)
}

/**
 * The host name of a `Host` header (`localhost:4010` → `localhost`, `[::1]:4010` → `[::1]`),
 * lower-cased, without a trailing dot; undefined when it is not a plausible `host[:port]`.
 */
export function hostnameOfHostHeader(host: string): string | undefined {
  const value = host.trim().toLowerCase()
  let name: string
  let port: string | undefined
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    if (end === -1) return undefined
    name = value.slice(0, end + 1)
    const rest = value.slice(end + 1)
    if (rest !== '' && !rest.startsWith(':')) return undefined
    port = rest === '' ? undefined : rest.slice(1)
  } else {
    const colon = value.lastIndexOf(':')
    name = colon === -1 ? value : value.slice(0, colon)
    port = colon === -1 ? undefined : value.slice(colon + 1)
  }
  if (port !== undefined && !/^[0-9]{1,5}$/.test(port)) return undefined
  if (name === '' || !/^[a-z0-9.\-_[\]:]+$/.test(name)) return undefined
  return name.replace(/\.$/, '')
}

/** `http://App.test:80/` → `http://app.test`; undefined for what is not an http(s) origin. */
export function normalizeOrigin(origin: string): string | undefined {
  if (!/^https?:\/\//i.test(origin)) return undefined
  try {
    const url = new URL(origin)
    return url.origin
  } catch {
    return undefined
  }
}

/** A `--cors-origin` value checked: `*`, or an http(s) origin. Throws a one-line Error otherwise. */
export function parseCorsOrigin(value: string): string {
  if (value === '*') return value
  const origin = normalizeOrigin(value.trim())
  if (origin === undefined || new URL(value.trim()).pathname.length > 1) {
    throw new Error(
      `--cors-origin must be an origin like http://app.test:3000 (scheme, host, optional port) or *, got "${value}"`,
    )
  }
  return origin
}

/** A `--allowed-host` value checked: a host name, optionally with a leading dot for its subdomains. */
export function parseAllowedHost(value: string): string {
  const name = value.trim().toLowerCase().replace(/\.$/, '')
  if (!/^\.?[a-z0-9_]([a-z0-9\-_.]*[a-z0-9_])?$/.test(name) && !isIpv6Literal(name)) {
    throw new Error(
      `--allowed-host must be a host name like my-box.lan (or .example.test for it and its subdomains), got "${value}"`,
    )
  }
  return name
}

/** Host header values whose answer a policy remembers. */
const HOST_MEMO = 64

/**
 * Builds the policy. Loopback origins and hosts are always allowed; IP literals are allowed as
 * `Host` (as in Vite: DNS rebinding needs a name, an address cannot be rebound), so a server
 * bound to `0.0.0.0` answers `http://192.168.1.5:4010` without a flag.
 *
 * @example
 * const policy = createOriginPolicy({ corsOrigins: ['http://app.test:3000'], allowedHosts: ['my-box.lan'] })
 * policy.corsOriginFor('http://localhost:5173') // 'http://localhost:5173'
 * policy.corsOriginFor('https://evil.test')    // undefined
 * policy.allowsHost('evil.test:4010')          // false
 */
export function createOriginPolicy(options: OriginPolicyOptions = {}): OriginPolicy {
  const listed = new Set<string>()
  let wildcard = false
  for (const value of options.corsOrigins ?? []) {
    const origin = parseCorsOrigin(value)
    if (origin === '*') wildcard = true
    else listed.add(origin)
  }
  const exactHosts = new Set<string>()
  const domainHosts: string[] = []
  for (const value of options.allowedHosts ?? []) {
    const name = parseAllowedHost(value)
    if (name.startsWith('.')) domainHosts.push(name)
    else exactHosts.add(name)
  }
  if (options.boundHost !== undefined) {
    const bound = options.boundHost.toLowerCase().replace(/\.$/, '')
    exactHosts.add(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound)
  }

  const allowsHostname = (name: string): boolean => {
    if (isLoopbackHostname(name) || isIpv4(name) || isIpv6Literal(name) || exactHosts.has(name)) return true
    for (const domain of domainHosts) if (name === domain.slice(1) || name.endsWith(domain)) return true
    return false
  }

  // Every request asks, nearly always with the same one or two values: remembered (the policy
  // never changes), at most HOST_MEMO of them so a flood of made-up Host headers stays small.
  const allowsHost = boundedMemo(HOST_MEMO, (host: string): boolean => {
    const name = hostnameOfHostHeader(host)
    return name !== undefined && allowsHostname(name)
  })

  const allowsOrigin = (origin: string, host?: string): boolean => {
    if (wildcard) return true
    if (listed.has(origin)) return true
    const normalized = normalizeOrigin(origin)
    if (normalized === undefined) return false // `null` (sandboxed frames, file://), other schemes
    if (listed.has(normalized)) return true
    const url = new URL(normalized)
    if (isLoopbackHostname(url.hostname)) return true
    // Same origin as the request: a page the server itself served (the web inbox on a LAN address).
    if (host !== undefined && url.host === host.trim().toLowerCase()) return allowsHost(host)
    return false
  }

  return {
    wildcard,
    allowsOrigin,
    corsOriginFor(origin, host) {
      if (origin === undefined) return wildcard ? '*' : undefined
      if (wildcard) return '*'
      return allowsOrigin(origin, host) ? origin : undefined
    },
    allowsHost,
  }
}
