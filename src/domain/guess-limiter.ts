/**
 * Slows down guessing of API keys, the admin token and team tokens (issue 27, N11; issue 36, R5).
 * A client that presents {@link MAX_WRONG_SECRETS} different wrong secrets within
 * {@link GUESS_WINDOW_MS} is refused every key and token (429, even a right one — else the answer
 * itself would tell a right guess) until the window has passed since its first miss.
 *
 * A client is what it cannot choose: its peer address (an IPv6 address by its /64, which one host
 * usually holds whole), never a header such as `Origin` (rotating it gave a fresh budget each
 * time). Local tools (loopback without `Origin`: test code, curl) are never counted, so a suite
 * checking its 401s cannot lock the machine out; web pages on this machine (loopback with an
 * `Origin`) share one budget. One wrong secret sent again and again (a misconfigured app) counts
 * once: guessing means trying many.
 *
 * Bounded to {@link MAX_CLIENTS} clients, and filling the table never frees a lockout: when it is
 * full, expired entries go first, then the oldest clients that are not locked out; when every
 * entry is a lockout, a new client is not tracked (see docs/decisions/guess-limiter.md).
 */
export const MAX_WRONG_SECRETS = 20
export const GUESS_WINDOW_MS = 10_000
export const MAX_CLIENTS = 10_000
/** How many entries a full table looks at for one that is not locked out. */
const EVICTION_SCAN = 64

interface Misses {
  since: number
  /** The wrong secrets presented in this window (distinct, cut to 128 characters). */
  secrets: Set<string>
}

export class GuessLimiter {
  /** In order of `since` (an entry whose window ends is deleted and set again at the end). */
  private readonly misses = new Map<string, Misses>()

  /** Seconds until `client` may try again, or 0 when it may now. */
  lockedFor(client: string | undefined, now: number): number {
    if (client === undefined) return 0
    const entry = this.misses.get(client)
    if (entry === undefined) return 0
    if (now - entry.since >= GUESS_WINDOW_MS) {
      this.misses.delete(client)
      return 0
    }
    return locked(entry) ? Math.max(1, Math.ceil((entry.since + GUESS_WINDOW_MS - now) / 1000)) : 0
  }

  /** Counts one wrong key or token presented by `client` (the same `secret` again counts once). */
  miss(client: string | undefined, now: number, secret = ''): void {
    if (client === undefined) return
    const entry = this.misses.get(client)
    const tried = secret.slice(0, 128)
    if (entry !== undefined && now - entry.since < GUESS_WINDOW_MS) {
      if (entry.secrets.size < MAX_WRONG_SECRETS) entry.secrets.add(tried)
      return
    }
    if (entry !== undefined) this.misses.delete(client)
    if (this.misses.size >= MAX_CLIENTS && !this.makeRoom(now)) return
    this.misses.set(client, { since: now, secrets: new Set([tried]) })
  }

  /** Clients tracked now (for the tests and metrics). */
  get size(): number {
    return this.misses.size
  }

  /** Frees one slot without freeing a lockout; false when every entry looked at is one. */
  private makeRoom(now: number): boolean {
    let looked = 0
    for (const [client, entry] of this.misses) {
      if (now - entry.since >= GUESS_WINDOW_MS || !locked(entry)) {
        this.misses.delete(client)
        return true
      }
      if (++looked >= EVICTION_SCAN) break
    }
    return false
  }
}

function locked(entry: Misses): boolean {
  return entry.secrets.size >= MAX_WRONG_SECRETS
}

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/

/**
 * Who is guessing, by what the client cannot choose: `address <ip>` (IPv6 by its /64), web pages
 * on this machine together, or undefined for a local tool (loopback or in-process, no `Origin`).
 */
export function guessingClient(origin: string | null, address: string | undefined): string | undefined {
  const page = origin !== null && origin !== ''
  if (address === undefined || LOOPBACK.test(address)) return page ? 'local web pages' : undefined
  return `address ${addressBlock(address)}`
}

/** An IPv4 address as it is; an IPv6 one by its first four groups (its /64). */
function addressBlock(address: string): string {
  if (!address.includes(':') || address.startsWith('::ffff:')) return address.replace(/^::ffff:/, '')
  const [head, tail = ''] = address.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === '' ? [] : tail.split(':')
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
