import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { auth, fakeClock, inProcess } from '../helpers.js'

const clock = fakeClock(Date.UTC(2026, 10, 21, 12, 0, 0, 0))
const api = inProcess({ now: clock.now, limits: { enterprise: 50 } })
afterAll(() => api.dispose())
beforeEach(async () => {
  clock.set(Date.UTC(2026, 10, 21, 12, 0, 0, 0))
  await api.sandbox.reset()
})

const list = (key = 'test_starter', headers: Record<string, string> = {}) =>
  api.call('GET', '/subscribers', undefined, { ...auth(key), ...headers })

describe('plan rate limits', () => {
  it('admits exactly the Starter limit, then answers 429 with Retry-After', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await list()
      expect(res.status).toBe(200)
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(99 - i))
    }
    const res = await list()
    expect(res.status).toBe(429)
    expect((await res.json()).error.code).toBe('rate_limit_exceeded')
    expect(res.headers.get('retry-after')).toBe('60')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((clock.now() + 60_000) / 1000)))
  })

  it('slides: no burst of 2N across a minute boundary', async () => {
    clock.advance(59_000) // 12:00:59 — right before a minute boundary
    for (let i = 0; i < 100; i++) expect((await list()).status).toBe(200)
    clock.advance(2_000) // 12:01:01 — a fixed window would have reset here
    const res = await list()
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('58')
    clock.advance(57_999)
    expect((await list()).status).toBe(429)
    clock.advance(1)
    expect((await list()).status).toBe(200)
  })

  it('frees slots one by one as the oldest requests age out', async () => {
    for (let i = 0; i < 100; i++) {
      expect((await list()).status).toBe(200)
      clock.advance(100)
    }
    // The first request was at t=0; now t=10 s. It leaves the window at t=60 s.
    const blocked = await list()
    expect(blocked.headers.get('retry-after')).toBe('50')
    clock.set(Date.UTC(2026, 10, 21, 12, 1, 0, 0))
    expect((await list()).status).toBe(200)
    expect((await list()).status).toBe(429) // only the first slot freed; the second frees at +100 ms
    clock.advance(100)
    expect((await list()).status).toBe(200)
  })

  it('does not count rejected requests or 401s', async () => {
    for (let i = 0; i < 100; i++) await list()
    for (let i = 0; i < 20; i++) expect((await list()).status).toBe(429)
    for (let i = 0; i < 20; i++) await list('wrong_key')
    clock.advance(60_000)
    for (let i = 0; i < 100; i++) expect((await list()).status).toBe(200)
    expect((await list()).status).toBe(429)
  })

  it('counts 400s and 404s, and puts the headers on them', async () => {
    const bad = await api.call('POST', '/email/send', { to: 'x' }, auth('test_starter'))
    expect(bad.status).toBe(400)
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('99')
    const missing = await api.call('GET', '/nope', undefined, auth('test_starter'))
    expect(missing.headers.get('x-ratelimit-remaining')).toBe('98')
  })

  it('is per key, and honours configured limits', async () => {
    for (let i = 0; i < 100; i++) await list()
    expect((await list()).status).toBe(429)
    expect((await list('test_pro')).status).toBe(200)
    for (let i = 0; i < 50; i++) expect((await list('test_enterprise')).status).toBe(200)
    const res = await list('test_enterprise')
    expect(res.status).toBe(429)
    expect(res.headers.get('x-ratelimit-limit')).toBe('50')
  })

  it('is exact under concurrency: N in flight at once, exactly the limit admitted', async () => {
    const statuses = await Promise.all(Array.from({ length: 130 }, () => list().then((r) => r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(100)
    expect(statuses.filter((s) => s === 429)).toHaveLength(30)
  })

  it('resets with the sandbox', async () => {
    for (let i = 0; i < 100; i++) await list()
    expect((await list()).status).toBe(429)
    await api.sandbox.reset('limits')
    expect((await list()).status).toBe(200)
  })
})
