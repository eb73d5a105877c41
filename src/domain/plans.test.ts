import { describe, expect, it } from 'vitest'
import { maskKey } from './plans.js'

describe('maskKey', () => {
  it('shows at most 4 characters of a key and never more than a third of it', () => {
    for (let length = 0; length <= 200; length++) {
      const key = 'k'.repeat(length)
      const shown = maskKey(key).replace('…', '').length
      expect(shown, `length ${length}`).toBeLessThanOrEqual(Math.min(4, Math.floor(length / 3)))
    }
  })
  it('keeps both ends for recognition', () => {
    expect(maskKey('test_starter')).toBe('te…er')
    expect(maskKey('test_pro')).toBe('t…o')
    expect(maskKey('sk_live_1234567890abcdef')).toBe('sk…ef')
    expect(maskKey('abcde')).toBe('a…')
    expect(maskKey('ab')).toBe('…')
  })
})
