import { describe, expect, it } from 'vitest'
import { GUESS_WINDOW_MS, GuessLimiter, guessingClient, MAX_CLIENTS, MAX_WRONG_SECRETS } from './guess-limiter.js'

describe('GuessLimiter', () => {
  it('locks a client out after MAX_WRONG_SECRETS different misses until the window since its first miss has passed', () => {
    const limiter = new GuessLimiter()
    for (let i = 0; i < MAX_WRONG_SECRETS - 1; i++) limiter.miss('address 10.0.0.1', 1_000 + i, `guess_${i}`)
    expect(limiter.lockedFor('address 10.0.0.1', 2_000)).toBe(0)
    limiter.miss('address 10.0.0.1', 2_000, 'guess_last')
    expect(limiter.lockedFor('address 10.0.0.1', 2_000)).toBe(9)
    expect(limiter.lockedFor('address 10.0.0.2', 2_000)).toBe(0)
    expect(limiter.lockedFor('address 10.0.0.1', 1_000 + GUESS_WINDOW_MS)).toBe(0)
  })

  it('counts one wrong secret sent again and again once', () => {
    const limiter = new GuessLimiter()
    for (let i = 0; i < 100; i++) limiter.miss('address 10.0.0.1', 1_000, 'stale_key')
    expect(limiter.lockedFor('address 10.0.0.1', 1_000)).toBe(0)
  })

  it('keeps its lockouts when the table is filled with fresh clients (R5)', () => {
    const limiter = new GuessLimiter()
    for (let i = 0; i < MAX_WRONG_SECRETS; i++) limiter.miss('address 10.0.0.1', 1_000, `guess_${i}`)
    for (let i = 0; i < MAX_CLIENTS * 2; i++) limiter.miss(`address 10.1.${i >> 8}.${i & 255}`, 1_001, 'x')
    expect(limiter.size).toBeLessThanOrEqual(MAX_CLIENTS)
    expect(limiter.lockedFor('address 10.0.0.1', 1_002)).toBeGreaterThan(0)
  })

  it('never counts local tools; keys every other client by its address, never by Origin', () => {
    expect(guessingClient(null, '127.0.0.1')).toBeUndefined()
    expect(guessingClient(null, '::1')).toBeUndefined()
    expect(guessingClient(null, '::ffff:127.0.0.1')).toBeUndefined()
    expect(guessingClient(null, undefined)).toBeUndefined()
    expect(guessingClient(null, '10.1.2.3')).toBe('address 10.1.2.3')
    expect(guessingClient('https://a.test', '10.1.2.3')).toBe(guessingClient('https://b.test', '10.1.2.3'))
    expect(guessingClient('https://evil.test', '127.0.0.1')).toBe(guessingClient('https://other.test', '::1'))
    expect(guessingClient(null, '2001:db8:1:2:aaaa::1')).toBe(guessingClient(null, '2001:0db8:1:2:bbbb:cccc:dddd:2'))
    expect(guessingClient(null, '2001:db8:1:3::1')).not.toBe(guessingClient(null, '2001:db8:1:2::1'))
  })
})
