import { describe, expect, it } from 'vitest'
import { newId, seededRandom } from './random.js'

describe('newId', () => {
  it('is the prefix and 24 base62 characters, flat and distinct across pool refills', () => {
    const ids = new Set<string>()
    // 5,000 ids draw the 4,096-byte pool ~30 times over.
    for (let i = 0; i < 5_000; i++) {
      const id = newId('msg_')
      expect(id).toMatch(/^msg_[0-9A-Za-z]{24}$/)
      ids.add(id)
    }
    expect(ids.size).toBe(5_000)
  })

  it('uses every character of the alphabet and keeps each prefix', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 500; i++) for (const c of newId('sub_').slice(4)) seen.add(c)
    expect(seen.size).toBe(62)
    expect(newId('pvw_').startsWith('pvw_')).toBe(true)
    expect(newId('')).toHaveLength(24)
  })
})

describe('seededRandom', () => {
  it('repeats for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42)
    const b = seededRandom(42)
    for (let i = 0; i < 1_000; i++) {
      const x = a()
      expect(x).toBe(b())
      expect(x >= 0 && x < 1).toBe(true)
    }
  })
})
