/** Window length of every plan's limit. */
export const WINDOW_MS = 60_000

/** What the limiter decided, with the values of the `X-RateLimit-*` headers. */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Unix seconds at which the oldest counted request leaves the window. */
  reset: number
  /** Whole seconds until a request would be admitted (only meaningful when not allowed). */
  retryAfter: number
  /** Unix milliseconds at which the oldest counted request leaves the window (`reset` before rounding up). */
  freeAt: number
}

/** `Retry-After` at `now` for a window whose oldest counted request leaves at `freeAt` (ms): whole seconds, at least 1. */
export function retryAfterSeconds(freeAt: number, now: number): number {
  return Math.max(1, Math.ceil((freeAt - now) / 1000))
}

/** Runs a window starts with: it doubles as distinct timestamps come, up to its limit. */
const INITIAL_SLOTS = 16

/**
 * Sliding-window log for one key: at most `limit` requests in any rolling 60 s.
 * The log is run-length coded: a ring of distinct timestamps, each with how many requests came at
 * it (requests at one millisecond leave the window together, so this is the exact log). The ring
 * starts small and doubles while the window holds more runs, never past `limit`; at a clock of whole
 * milliseconds it never holds more than 60,001 runs (~720 KB), however many requests a second come
 * (the bench's 30,000 a second had grown a log of one slot a request to 2 MB and more per key). A
 * check is O(1) amortised.
 */
export class SlidingWindow {
  private stamps: Float64Array
  private counts: Uint32Array
  private head = 0
  /** Runs in the ring. */
  private runs = 0
  /** Requests in the window: the sum of the runs' counts. */
  private size = 0

  constructor(readonly limit: number) {
    const slots = Math.min(Math.max(1, limit), INITIAL_SLOTS)
    this.stamps = new Float64Array(slots)
    this.counts = new Uint32Array(slots)
  }

  private evict(now: number): void {
    const stamps = this.stamps
    while (this.runs > 0 && stamps[this.head] <= now - WINDOW_MS) {
      this.size -= this.counts[this.head]
      this.head = this.head + 1 === stamps.length ? 0 : this.head + 1
      this.runs--
    }
  }

  /** Doubles the ring (capped at the limit), keeping the runs in order from slot 0. */
  private grow(): void {
    const stamps = this.stamps
    const counts = this.counts
    const length = Math.min(this.limit, stamps.length * 2)
    const nextStamps = new Float64Array(length)
    const nextCounts = new Uint32Array(length)
    for (let i = 0; i < this.runs; i++) {
      const from = (this.head + i) % stamps.length
      nextStamps[i] = stamps[from]
      nextCounts[i] = counts[from]
    }
    this.stamps = nextStamps
    this.counts = nextCounts
    this.head = 0
  }

  private decision(allowed: boolean, freeAt: number, now: number): RateDecision {
    return {
      allowed,
      limit: this.limit,
      remaining: allowed ? this.limit - this.size : 0,
      reset: Math.ceil(freeAt / 1000),
      retryAfter: allowed ? 0 : retryAfterSeconds(freeAt, now),
      freeAt,
    }
  }

  /** Counts a request at `now` if the window has room. */
  take(now: number): RateDecision {
    this.evict(now)
    if (this.size >= this.limit) return this.decision(false, this.stamps[this.head] + WINDOW_MS, now)
    const last = (this.head + this.runs - 1) % this.stamps.length
    if (this.runs > 0 && this.stamps[last] === now) this.counts[last]++
    else {
      if (this.runs === this.stamps.length) this.grow()
      const slot = (this.head + this.runs) % this.stamps.length
      this.stamps[slot] = now
      this.counts[slot] = 1
      this.runs++
    }
    this.size++
    return this.decision(true, this.stamps[this.head] + WINDOW_MS, now)
  }

  /** Requests counted in the window ending at `now`. */
  used(now: number): number {
    this.evict(now)
    return this.size
  }

  /** Runs the ring holds now (at most the limit). */
  get capacity(): number {
    return this.stamps.length
  }

  clear(): void {
    this.head = 0
    this.runs = 0
    this.size = 0
  }
}

/** One sliding window per API key. */
export class RateLimiter {
  private readonly windows = new Map<string, SlidingWindow>()

  constructor(private readonly limitFor: (key: string) => number) {}

  private window(key: string): SlidingWindow {
    let window = this.windows.get(key)
    if (!window || window.limit !== this.limitFor(key)) {
      window = new SlidingWindow(this.limitFor(key))
      this.windows.set(key, window)
    }
    return window
  }

  take(key: string, now: number): RateDecision {
    return this.window(key).take(now)
  }

  used(key: string, now: number): number {
    return this.windows.get(key)?.used(now) ?? 0
  }

  /** Empties every window, keeping its ring (a window whose plan's limit changed is replaced when next used). */
  reset(): void {
    for (const window of this.windows.values()) window.clear()
  }
}
