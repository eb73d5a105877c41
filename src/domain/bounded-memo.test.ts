import { describe, expect, it, vi } from 'vitest'
import { boundedMemo } from './bounded-memo.js'

describe('boundedMemo', () => {
  it('computes a key once while it is kept, and forgets everything when full', () => {
    const compute = vi.fn((key: string) => key.length)
    const memo = boundedMemo(2, compute)
    expect([memo('a'), memo('a'), memo('bb')]).toEqual([1, 1, 2])
    expect(compute).toHaveBeenCalledTimes(2)
    memo('ccc') // full: cleared, then 'ccc' kept
    memo('ccc')
    memo('a')
    expect(compute.mock.calls.map(([key]) => key)).toEqual(['a', 'bb', 'ccc', 'a'])
  })

  it('keeps false, but not undefined, nor what `keep` refuses', () => {
    const compute = vi.fn((key: string) => (key === 'x' ? undefined : key === 'no'))
    const memo = boundedMemo(8, compute, (key) => key !== 'long')
    for (let i = 0; i < 3; i++)
      expect([memo('x'), memo('yes'), memo('no'), memo('long')]).toEqual([undefined, false, true, false])
    expect(compute.mock.calls.map(([key]) => key)).toEqual(['x', 'yes', 'no', 'long', 'x', 'long', 'x', 'long'])
  })
})
