import { describe, expect, it } from 'vitest'
import { IdIndex } from './id-index.js'

/** An IdIndex over a plain array of kept ids, driven beside a Map as the model. */
function harness() {
  const kept: (string | undefined)[] = []
  const index = new IdIndex((seq) => kept[seq])
  const model = new Map<string, number>()
  return {
    index,
    model,
    add(id: string) {
      const seq = kept.length
      index.set(id, seq)
      kept.push(id)
      model.set(id, seq)
    },
    remove(id: string) {
      const seq = model.get(id)
      expect(index.delete(id)).toBe(seq !== undefined)
      if (seq !== undefined) kept[seq] = undefined
      model.delete(id)
    },
  }
}

describe('IdIndex', () => {
  it('answers as a Map through 50,000 adds and evictions, lookups of unknown ids among them', () => {
    const h = harness()
    let seed = 11
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647
    const order: string[] = []
    for (let n = 0; n < 50_000; n++) {
      const id = `msg_${Math.floor(random() * 36 ** 6).toString(36)}${n}`
      h.add(id)
      order.push(id)
      // Hold between 0 and ~3,000 ids: the table grows, fills with freed slots and is rebuilt.
      while (order.length > 0 && (order.length > 3_000 || random() < 0.3)) h.remove(order.shift()!)
      if (n % 97 === 0) {
        for (const probe of [id, order[0], `msg_missing${n}`, ''])
          if (probe !== undefined) expect(h.index.get(probe)).toBe(h.model.get(probe))
      }
    }
    for (const [id, seq] of h.model) expect(h.index.get(id)).toBe(seq)
  })

  it('replaces the mapping of an id set again, and forgets everything on clear', () => {
    const h = harness()
    h.add('a')
    h.add('b')
    h.add('a')
    expect(h.index.get('a')).toBe(2)
    expect(h.index.get('b')).toBe(1)
    h.index.clear()
    expect(h.index.has('a')).toBe(false)
    expect(h.index.delete('b')).toBe(false)
  })

  it('rebuilds its table from the hashes it keeps, reading no message (a rebuild at a full outbox of 100,000 held a send ~100 ms)', () => {
    const kept: (string | undefined)[] = []
    let reads = 0
    const index = new IdIndex((seq) => {
      reads++
      return kept[seq]
    })
    // 1,000 kept, one added and one evicted per step: the freed slots fill the table, which is rebuilt many times.
    for (let seq = 0; seq < 20_000; seq++) {
      index.set(`msg_${seq}`, seq)
      kept.push(`msg_${seq}`)
      if (seq >= 1_000) {
        index.delete(`msg_${seq - 1_000}`)
        kept[seq - 1_000] = undefined
      }
    }
    // A delete reads the one message its hash matches; a set of a new id, none; a rebuild, none.
    // (Rehashing from the messages, as it did, read 44,615.)
    expect(reads).toBeLessThan(19_000 + 100)
    for (let seq = 19_000; seq < 20_000; seq++) expect(index.get(`msg_${seq}`)).toBe(seq)
    expect(index.get('msg_18999')).toBeUndefined()
  })

  it('finds ids whose hashes collide (any string is an id: fixtures name their own)', () => {
    const h = harness()
    // Many ids, a small live set: long probe runs through freed slots.
    for (let i = 0; i < 2_000; i++) {
      h.add(`x${i}`)
      if (i >= 4) h.remove(`x${i - 4}`)
    }
    for (let i = 1_996; i < 2_000; i++) expect(h.index.get(`x${i}`)).toBe(i)
    expect(h.index.get('x0')).toBeUndefined()
  })
})
