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

describe('SlidingWindow memory', () => {
  it('starts small at a limit of 1,000,000 and grows only with the requests it holds', () => {
    const window = new SlidingWindow(1_000_000)
    expect(window.capacity).toBeLessThanOrEqual(16)
    for (let i = 0; i < 100; i++) expect(window.take(i).allowed).toBe(true)
    expect(window.capacity).toBeLessThanOrEqual(128)
    expect(window.used(100)).toBe(100)
    expect(window.take(100)).toMatchObject({ remaining: 1_000_000 - 101, reset: 60 })
  })

  it('keeps order across growth when the ring had wrapped', () => {
    const window = new SlidingWindow(40)
    for (let t = 0; t < 16; t++) window.take(t * 1000)
    // The first 11 leave the window, then 20 more make the ring wrap and grow.
    for (let t = 0; t < 20; t++) window.take(WINDOW_MS + 10_000 + t)
    expect(window.used(WINDOW_MS + 10_020)).toBe(25)
    expect(window.take(WINDOW_MS + 10_020)).toMatchObject({
      allowed: true,
      remaining: 40 - 26,
      reset: Math.ceil((11_000 + WINDOW_MS) / 1000),
    })
  })

  it('admits again after clear() without losing its limit', () => {
    const window = new SlidingWindow(2)
    window.take(0)
    window.take(1)
    expect(window.take(2).allowed).toBe(false)
    window.clear()
    expect(window.take(3)).toMatchObject({ allowed: true, remaining: 1 })
  })
})

describe('SlidingWindow run-length log', () => {
  it('holds one run per distinct millisecond, however many requests share it', () => {
    const window = new SlidingWindow(1_000_000)
    for (let ms = 0; ms < 1_000; ms++) for (let i = 0; i < 50; i++) window.take(ms)
    expect(window.used(999)).toBe(50_000)
    expect(window.capacity).toBeLessThanOrEqual(1_024)
    // The first millisecond's 50 leave together.
    expect(window.used(WINDOW_MS)).toBe(49_950)
  })

  it('decides exactly as a log of one stamp a request', () => {
    let seed = 7
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    for (const limit of [1, 3, 50, 1_000]) {
      const window = new SlidingWindow(limit)
      const log: number[] = []
      let now = 0
      for (let i = 0; i < 20_000; i++) {
        now += random() < 0.6 ? 0 : Math.floor(random() * (limit > 50 ? 200 : 9_000))
        while (log.length > 0 && log[0] <= now - WINDOW_MS) log.shift()
        const allowed = log.length < limit
        if (allowed) log.push(now)
        const freeAt = log[0] + WINDOW_MS
        expect(window.take(now)).toEqual({
          allowed,
          limit,
          remaining: allowed ? limit - log.length : 0,
          reset: Math.ceil(freeAt / 1000),
          retryAfter: allowed ? 0 : Math.max(1, Math.ceil((freeAt - now) / 1000)),
          freeAt,
        })
      }
    }
  })
})
