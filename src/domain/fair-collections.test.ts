import { describe, expect, it } from 'vitest'
import { FairQueue, FairStore } from './fair-collections.js'

describe('FairStore', () => {
  it('a flooding owner evicts its own oldest once at its share; the other keeps what it had', () => {
    const store = new FairStore<number, string>(10)
    for (let i = 0; i < 3; i++) store.add(i, 'b', `b${i}`)
    for (let i = 3; i < 1_000; i++) store.add(i, 'a', `a${i}`)
    expect(store.size).toBe(10)
    expect(store.heldBy('b')).toBe(3)
    expect([...store.values()]).toEqual(['b0', 'b1', 'b2', 'a993', 'a994', 'a995', 'a996', 'a997', 'a998', 'a999'])
  })

  it('an owner below its share takes room from the owner holding most, up to its share', () => {
    const store = new FairStore<number, string>(10)
    for (let i = 0; i < 10; i++) store.add(i, 'a', `a${i}`)
    for (let i = 10; i < 30; i++) store.add(i, 'b', `b${i}`)
    expect(store.heldBy('a')).toBe(5)
    expect(store.heldBy('b')).toBe(5)
    expect([...store.values()].slice(0, 5)).toEqual(['a5', 'a6', 'a7', 'a8', 'a9'])
  })

  it('a re-added key moves last and is not counted twice; a removed one is forgotten', () => {
    const store = new FairStore<string, number>(3)
    store.add('x', 'a', 1)
    store.add('y', 'a', 2)
    store.add('x', 'a', 3)
    expect([...store.values()]).toEqual([2, 3])
    expect(store.heldBy('a')).toBe(2)
    expect(store.remove('y')).toBe(true)
    expect(store.remove('y')).toBe(false)
    store.add('z', 'a', 4)
    store.add('w', 'a', 5)
    expect(store.add('v', 'a', 6)).toEqual(['x'])
  })
})

describe('FairQueue', () => {
  it("serves owners in turn and, when full, drops the flooding owner's own oldest", () => {
    const queue = new FairQueue<string>(4)
    for (let i = 0; i < 3; i++) expect(queue.push('a', `a${i}`)).toBeUndefined()
    expect(queue.push('b', 'b0')).toBeUndefined()
    expect(queue.push('a', 'a3')).toBe('a0')
    expect(queue.push('b', 'b1')).toBe('a1')
    expect(queue.length).toBe(4)
    expect([queue.shift(), queue.shift(), queue.shift(), queue.shift(), queue.shift()]).toEqual([
      'a2',
      'b0',
      'a3',
      'b1',
      undefined,
    ])
  })
})
