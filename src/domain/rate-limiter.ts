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

/** Slots a window starts with: it doubles as requests come, up to its limit. */
const INITIAL_SLOTS = 16

/**
 * Sliding-window log for one key: at most `limit` requests in any rolling 60 s.
 * Timestamps sit in a ring buffer that starts small and doubles while the window holds more
 * (never past `limit` slots), so memory follows the traffic, a limit of 1,000,000 costs what a
 * limit of 100 does until a million requests come, and a check is O(1) amortised.
 */
export class SlidingWindow {
  private stamps: Float64Array
  private head = 0
  private size = 0

  constructor(readonly limit: number) {
    this.stamps = new Float64Array(Math.min(Math.max(1, limit), INITIAL_SLOTS))
  }

  private evict(now: number): void {
    const stamps = this.stamps
    while (this.size > 0 && stamps[this.head] <= now - WINDOW_MS) {
      this.head = this.head + 1 === stamps.length ? 0 : this.head + 1
      this.size--
    }
  }

  /** Doubles the ring (capped at the limit), keeping the stamps in order from slot 0. */
  private grow(): void {
    const old = this.stamps
    const next = new Float64Array(Math.min(this.limit, old.length * 2))
    for (let i = 0; i < this.size; i++) next[i] = old[(this.head + i) % old.length]
    this.stamps = next
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
    if (this.size === this.stamps.length) this.grow()
    this.stamps[(this.head + this.size) % this.stamps.length] = now
    this.size++
    return this.decision(true, this.stamps[this.head] + WINDOW_MS, now)
  }

  /** Requests counted in the window ending at `now`. */
  used(now: number): number {
    this.evict(now)
    return this.size
  }

  /** Slots the ring holds now (at most the limit). */
  get capacity(): number {
    return this.stamps.length
  }

  clear(): void {
    this.head = 0
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
