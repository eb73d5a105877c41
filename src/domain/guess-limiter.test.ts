import { describe, expect, it } from 'vitest'
import { GUESS_WINDOW_MS, GuessLimiter, guessingClient, MAX_WRONG_SECRETS } from './guess-limiter.js'

describe('GuessLimiter', () => {
  it('locks a client out after MAX_WRONG_SECRETS misses until the window since its first miss has passed', () => {
    const limiter = new GuessLimiter()
    for (let i = 0; i < MAX_WRONG_SECRETS - 1; i++) limiter.miss('origin https://evil.test', 1_000 + i)
    expect(limiter.lockedFor('origin https://evil.test', 2_000)).toBe(0)
    limiter.miss('origin https://evil.test', 2_000)
    expect(limiter.lockedFor('origin https://evil.test', 2_000)).toBe(9)
    expect(limiter.lockedFor('origin https://other.test', 2_000)).toBe(0)
    expect(limiter.lockedFor('origin https://evil.test', 1_000 + GUESS_WINDOW_MS)).toBe(0)
  })

  it('never counts local tools: no origin, a loopback address', () => {
    expect(guessingClient(null, '127.0.0.1')).toBeUndefined()
    expect(guessingClient(null, '::1')).toBeUndefined()
    expect(guessingClient(null, '::ffff:127.0.0.1')).toBeUndefined()
    expect(guessingClient(null, undefined)).toBeUndefined()
    expect(guessingClient(null, '10.1.2.3')).toBe('address 10.1.2.3')
    expect(guessingClient('https://evil.test', '127.0.0.1')).toBe('origin https://evil.test')
  })
})
