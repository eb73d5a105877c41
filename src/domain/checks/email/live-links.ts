import type { Check } from '../../../contract/checks.js'
import { probeLinks, type ProbeResult } from './link-probe.js'

/**
 * Live link checks (issue 35, `?links=live`): each distinct http(s) URL requested (HEAD, then GET
 * when refused), at most 8 at once, 5 s each, 5 redirects, no credentials, bodies not kept, in a
 * worker thread msw cannot intercept (link-probe.ts). Loopback and private addresses are requested
 * too: the app under test usually runs on localhost. One error per broken, unreachable or
 * endlessly redirecting URL, and one info check counting what was checked.
 */

export interface LiveLinkOptions {
  signal?: AbortSignal
  /** Per URL, redirects and the GET retry included (ms); 5000 by default. */
  timeoutMs?: number
  /** At most this many requests at once; 8 by default. */
  concurrency?: number
  /** Redirects followed; 5 by default. */
  maxRedirects?: number
}

export const LIVE_LINK_DEFAULTS = { timeoutMs: 5_000, concurrency: 8, maxRedirects: 5 } as const

/** The distinct http(s) URLs, credentials removed, in order. */
export function liveLinkTargets(urls: readonly string[]): string[] {
  const targets = new Set<string>()
  for (const raw of urls) {
    try {
      const url = new URL(raw)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
      url.username = ''
      url.password = ''
      targets.add(url.href)
    } catch {
      // Not a URL: the static link checks report it.
    }
  }
  return [...targets]
}

const WHY: Record<string, string> = {
  ENOTFOUND: 'its host name does not resolve (DNS)',
  EAI_AGAIN: 'its host name could not be resolved (DNS)',
  ECONNREFUSED: 'the connection was refused (nothing listens there)',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate names another host',
}

/** A probe's result as a check, or undefined when the link works. */
export function linkResultCheck(result: ProbeResult, timeoutMs: number): Check | undefined {
  const via = result.finalUrl
    ? ` (after ${result.redirects} redirect${result.redirects > 1 ? 's' : ''}, at ${result.finalUrl})`
    : ''
  const base = { category: 'links' as const, severity: 'error' as const, link: result.url }
  if (result.error === 'loop') {
    return {
      ...base,
      id: 'links.redirect-loop',
      status: result.status,
      message: `${result.url} redirects in a loop: ${result.loop!.join(' → ')}`,
    }
  }
  if (result.error === 'redirects') {
    return {
      ...base,
      id: 'links.too-many-redirects',
      status: result.status,
      message: `${result.url} redirects more than ${result.redirects - 1} times (last to ${result.finalUrl}); fix the link to point at the final page`,
    }
  }
  if (result.error !== undefined) {
    const why =
      result.error === 'timeout' ? `no answer within ${timeoutMs / 1000} s` : (WHY[result.error] ?? result.error)
    return { ...base, id: 'links.unreachable', message: `${result.url} is unreachable${via}: ${why}` }
  }
  if (result.status !== undefined && result.status >= 400) {
    return {
      ...base,
      id: 'links.broken',
      status: result.status,
      message: `${result.url} answers ${result.status}${via}: a person clicking it gets an error page`,
    }
  }
  return undefined
}

/**
 * Live link checks (issue 35, `?links=live`).
 *
 * @param urls the message's links and image sources (non-http(s) ones are skipped)
 */
export async function liveLinkChecks(urls: readonly string[], options: LiveLinkOptions = {}): Promise<Check[]> {
  const targets = liveLinkTargets(urls)
  if (targets.length === 0) return []
  const job = {
    urls: targets,
    timeoutMs: options.timeoutMs ?? LIVE_LINK_DEFAULTS.timeoutMs,
    concurrency: Math.max(
      1,
      Math.min(options.concurrency ?? LIVE_LINK_DEFAULTS.concurrency, LIVE_LINK_DEFAULTS.concurrency),
    ),
    maxRedirects: options.maxRedirects ?? LIVE_LINK_DEFAULTS.maxRedirects,
  }
  const results = await probeLinks(job, options.signal)
  const problems = results
    .map((result) => linkResultCheck(result, job.timeoutMs))
    .filter((check): check is Check => check !== undefined)
  const fine = results.length - problems.length
  const summary: Check = {
    id: 'links.live',
    severity: 'info',
    category: 'links',
    message: `Checked ${results.length} link${results.length > 1 ? 's' : ''} live: ${fine} answered, ${problems.length} failed`,
  }
  return [...problems, summary]
}
