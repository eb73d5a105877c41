/**
 * Hosts a person outside the sender's machine or network cannot reach: loopback, private and
 * link-local addresses, and the names reserved for them. Fine in development, wrong in production
 * mail (the `links.private-address` rule).
 */

function privateIpv4(host: string): boolean {
  const parts = host.split('.').map(Number)
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false
  const [a, b] = parts as [number, number, number, number]
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127)
  )
}

function privateIpv6(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (!address.includes(':')) return false
  return (
    address === '::1' ||
    address === '::' ||
    /^f[cd][0-9a-f]{2}:/.test(address) ||
    /^fe[89ab][0-9a-f]:/.test(address) ||
    /^::ffff:(127|10|192\.168)\./.test(address)
  )
}

/** Whether a URL's hostname (as `URL.hostname` gives it) names loopback, a private network or a local-only name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    host.endsWith('.lan')
  )
    return true
  return privateIpv4(host) || privateIpv6(host)
}

/** The hostname of an absolute http(s) URL, or undefined. */
export function httpHost(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname : undefined
  } catch {
    return undefined
  }
}

const HOST_TEXT = /^(?:https?:\/\/)?((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63})(?::\d+)?(?:[/?#]\S*)?$/i

/** The host a link's visible text names (`example.com`, `https://www.example.com/reset`), or undefined for other text. */
export function hostInText(text: string): string | undefined {
  const match = HOST_TEXT.exec(text.trim())
  return match ? match[1].toLowerCase() : undefined
}

/** Two hosts are the same site for a reader when they differ only by a leading `www.`. */
export function sameHost(a: string, b: string): boolean {
  const strip = (host: string) =>
    host
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '')
  return strip(a) === strip(b)
}
