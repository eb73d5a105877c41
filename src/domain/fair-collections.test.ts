import { describe, expect, it } from 'vitest'
import { FairLog, FairQueue, FairStore } from './fair-collections.js'

describe('FairStore', () => {
  it('a flooding owner evicts its own oldest once at its share; the other keeps what it had', () => {
    const store = new FairStore<number, string>(10)
    for (let i = 0; i < 3; i++) store.add(i, 'b', `b${i}`)
    for (let i = 3; i < 1_000; i++) store.add(i, 'a', `a${i}`)
    expect(store.size).toBe(10)
    expect(store.heldBy('b')).toBe(3)
    expect([...store.values()]).toEqual(['b0', 'b1', 'b2', 'a993', 'a994', 'a995', 'a996', 'a997', 'a998', 'a999'])
  })

  it("keeps its bound when an owner's last other item is evicted by its own add (capacity 1, shares of 1)", () => {
    const store = new FairStore<number, string>(1)
    for (let i = 0; i < 5; i++) expect(store.add(i, 'a', `a${i}`)).toEqual(i === 0 ? [] : [i - 1])
    expect([...store.values()]).toEqual(['a4'])
    const shared = new FairStore<number, string>(3)
    for (let i = 0; i < 60; i++) shared.add(i, ['a', 'b', 'c', 'd'][i % 4]!, `v${i}`)
    expect(shared.size).toBe(3)
    expect([...shared.values()]).toEqual(['v57', 'v58', 'v59'])
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

describe('FairLog', () => {
  /** A repeatable sequence of owners: bursts of one, a quiet one now and then, owners coming and going. */
  function* owners(seed: number, count: number): Generator<string> {
    let state = seed
    let current = 'a'
    for (let i = 0; i < count; i++) {
      state = (state * 1103515245 + 12345) % 2 ** 31
      if (state % 7 === 0) current = ['a', 'b', 'c', 'd', 'e'][state % 5]!
      yield state % 53 === 0 ? `quiet${state % 3}` : current
    }
  }

  it.each([1, 2, 7, 100, 1_000])(
    'evicts exactly as FairStore does (capacity %i), through many compactions',
    (capacity) => {
      const log = new FairLog<string>(capacity)
      const store = new FairStore<number, string>(capacity)
      let key = 0
      for (const owner of owners(capacity, 20_000)) {
        key += 1 + (key % 3) // keys that grow, with gaps
        expect(log.add(key, owner, `${owner}:${key}`)).toEqual(store.add(key, owner, `${owner}:${key}`))
        if (key % 997 === 0) {
          expect([...log.values()]).toEqual([...store.values()])
          for (const who of ['a', 'b', 'c', 'd', 'e', 'quiet0', 'quiet1'])
            expect(log.heldBy(who)).toBe(store.heldBy(who))
        }
      }
      expect(log.size).toBe(store.size)
      expect([...log.values()]).toEqual([...store.values()])
      for (const value of store.values()) {
        const k = Number(value.split(':')[1])
        expect(log.get(k)).toBe(value)
      }
    },
  )

  it('finds a kept key, not an evicted or unknown one; ignores a key that does not grow', () => {
    const log = new FairLog<string>(3)
    for (let k = 1; k <= 5; k++) log.add(k * 10, 'a', `v${k}`)
    expect(log.get(50)).toBe('v5')
    expect(log.get(30)).toBe('v3')
    expect(log.get(20)).toBeUndefined()
    expect(log.get(35)).toBeUndefined()
    expect(log.add(40, 'b', 'late')).toEqual([])
    expect([...log.values()]).toEqual(['v3', 'v4', 'v5'])
  })

  it('clear forgets everything and takes keys from anywhere again', () => {
    const log = new FairLog<string>(2)
    log.add(5, 'a', 'x')
    log.add(6, 'b', 'y')
    log.clear()
    expect(log.size).toBe(0)
    expect(log.heldBy('a')).toBe(0)
    expect([...log.values()]).toEqual([])
    log.add(1, 'a', 'z')
    expect(log.get(1)).toBe('z')
    expect(log.get(5)).toBeUndefined()
  })
})
