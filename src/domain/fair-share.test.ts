import { describe, expect, it } from 'vitest'
import { evictionOwner, shareOf, SlotShares } from './fair-share.js'

describe('fair shares', () => {
  it("evicts the adder's own oldest at its share, else the owner holding most", () => {
    expect(shareOf(100, 2)).toBe(50)
    expect(
      evictionOwner(
        'a',
        new Map([
          ['a', 60],
          ['b', 40],
        ]),
        100,
      ),
    ).toBe('a')
    expect(
      evictionOwner(
        'b',
        new Map([
          ['a', 99],
          ['b', 1],
        ]),
        100,
      ),
    ).toBe('a')
    expect(
      evictionOwner(
        'c',
        new Map([
          ['a', 70],
          ['b', 30],
        ]),
        100,
      ),
    ).toBe('a')
  })

  it('lets an owner at its share take only room no other owner below its share may still claim', () => {
    const slots = new SlotShares<string>(
      () => 6,
      () => 3,
    )
    expect(slots.take('a')).toBe(true)
    expect(slots.take('a')).toBe(true)
    expect(slots.take('a')).toBe(false)
    expect(slots.take('b')).toBe(true)
    expect(slots.take('b')).toBe(true)
    expect(slots.take('c')).toBe(true)
    expect(slots.take('c')).toBe(true)
    expect(slots.take('c')).toBe(false)
    slots.release('a')
    expect(slots.heldBy('a')).toBe(1)
    expect(slots.total).toBe(5)
    expect(slots.take('b')).toBe(false)
    expect(slots.take('a')).toBe(true)
  })

  it('is the plain bound with one owner', () => {
    const slots = new SlotShares<string>(
      () => 3,
      () => 1,
    )
    expect([slots.take('x'), slots.take('x'), slots.take('x'), slots.take('x')]).toEqual([true, true, true, false])
  })
})
