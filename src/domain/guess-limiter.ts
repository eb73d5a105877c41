/**
 * Slows down guessing of API keys and the admin token (issue 27, N11: ~20,000 guesses a second
 * were possible). A client that presents {@link MAX_WRONG_SECRETS} wrong secrets within
 * {@link GUESS_WINDOW_MS} is refused every key and token (429, even a right one — else the answer
 * itself would tell a right guess) until the window has passed since its first miss.
 *
 * A client is a web origin (a page's requests carry `Origin`) or a remote address. Local tools
 * and test code (no Origin, loopback) are never counted: a test suite checking its 401s must not
 * lock the machine out. Bounded: at most {@link MAX_CLIENTS} clients are tracked.
 */
export const MAX_WRONG_SECRETS = 20
export const GUESS_WINDOW_MS = 10_000
export const MAX_CLIENTS = 10_000

export class GuessLimiter {
  private readonly misses = new Map<string, { since: number; count: number }>()

  /** Seconds until `client` may try again, or 0 when it may now. */
  lockedFor(client: string | undefined, now: number): number {
    if (client === undefined) return 0
    const entry = this.misses.get(client)
    if (entry === undefined) return 0
    if (now - entry.since >= GUESS_WINDOW_MS) {
      this.misses.delete(client)
      return 0
    }
    return entry.count >= MAX_WRONG_SECRETS ? Math.max(1, Math.ceil((entry.since + GUESS_WINDOW_MS - now) / 1000)) : 0
  }

  /** Counts one wrong key or token presented by `client`. */
  miss(client: string | undefined, now: number): void {
    if (client === undefined) return
    const entry = this.misses.get(client)
    if (entry === undefined || now - entry.since >= GUESS_WINDOW_MS) {
      if (entry === undefined && this.misses.size >= MAX_CLIENTS) this.misses.clear()
      this.misses.set(client, { since: now, count: 1 })
    } else entry.count++
  }
}

/** Who is guessing: the page's origin, else a remote (non-loopback) address, else nobody counted. */
export function guessingClient(origin: string | null, address: string | undefined): string | undefined {
  if (origin !== null && origin !== '') return `origin ${origin.slice(0, 200)}`
  if (address === undefined || /^(?:127\.|::1$|::ffff:127\.)/.test(address)) return undefined
  return `address ${address}`
}
