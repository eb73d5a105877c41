import { describe, expect, it } from 'vitest'
import { SlidingWindow, WINDOW_MS } from './rate-limiter.js'

describe('SlidingWindow', () => {
  it('admits N in any rolling window and reports when a slot frees', () => {
    const window = new SlidingWindow(3)
    expect(window.take(0)).toMatchObject({ allowed: true, remaining: 2, reset: 60 })
    expect(window.take(1_000)).toMatchObject({ allowed: true, remaining: 1 })
    expect(window.take(2_000)).toMatchObject({ allowed: true, remaining: 0, reset: 60 })
    expect(window.take(30_500)).toMatchObject({ allowed: false, retryAfter: 30, reset: 60 })
    expect(window.take(WINDOW_MS)).toMatchObject({ allowed: true, remaining: 0, reset: 61 })
    expect(window.used(WINDOW_MS)).toBe(3)
    expect(window.used(WINDOW_MS + 2_000)).toBe(1)
  })

  it('rounds Retry-After up and never answers 0', () => {
    const window = new SlidingWindow(1)
    window.take(0)
    expect(window.take(59_999).retryAfter).toBe(1)
    expect(window.take(58_500).retryAfter).toBe(2)
  })

  it('keeps memory bounded by the limit however many requests come', () => {
    const window = new SlidingWindow(5)
    for (let t = 0; t < 1_000_000; t += 7) window.take(t)
    expect(window.used(1_000_000)).toBeLessThanOrEqual(5)
  })
})
