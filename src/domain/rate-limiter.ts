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

/**
 * Sliding-window log for one key: at most `limit` requests in any rolling 60 s.
 * Timestamps sit in a ring buffer of exactly `limit` slots, so memory is bounded by the
 * plan and a check is O(1) amortised.
 */
export class SlidingWindow {
  private readonly stamps: Float64Array
  private head = 0
  private size = 0

  constructor(readonly limit: number) {
    this.stamps = new Float64Array(Math.max(1, limit))
  }

  private evict(now: number): void {
    while (this.size > 0 && this.stamps[this.head] <= now - WINDOW_MS) {
      this.head = (this.head + 1) % this.stamps.length
      this.size--
    }
  }

  /** Counts a request at `now` if the window has room. */
  take(now: number): RateDecision {
    this.evict(now)
    if (this.size >= this.limit) {
      const oldest = this.stamps[this.head]
      const freeAt = oldest + WINDOW_MS
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        reset: Math.ceil(freeAt / 1000),
        retryAfter: retryAfterSeconds(freeAt, now),
        freeAt,
      }
    }
    this.stamps[(this.head + this.size) % this.stamps.length] = now
    this.size++
    const freeAt = this.stamps[this.head] + WINDOW_MS
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - this.size,
      reset: Math.ceil(freeAt / 1000),
      retryAfter: 0,
      freeAt,
    }
  }

  /** Requests counted in the window ending at `now`. */
  used(now: number): number {
    this.evict(now)
    return this.size
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
    if (!window) {
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

  reset(): void {
    this.windows.clear()
  }
}
