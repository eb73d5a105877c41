import { describe, expect, it } from 'vitest'
import { Postings } from './outbox-index.js'

/** A list fed the way a full outbox feeds it: a number in, and the oldest out, on every send. */
function fedAsAFullOutbox(sends: number, cap: number): Postings {
  const list = new Postings('ana@example.com')
  let oldest = 0
  const isKept = (seq: number) => seq >= oldest
  for (let seq = 0; seq < sends; seq++) {
    list.add(seq, 1)
    if (list.live > cap) {
      oldest++
      list.remove(1, isKept)
    }
  }
  return list
}

describe('an index list', () => {
  it('holds a bounded number of sequence numbers however many messages passed through it', () => {
    const list = fedAsAFullOutbox(200_000, 1_000)
    expect(list.live).toBe(1_000)
    // It kept one for every message it ever had (200,000) before the stale prefix was dropped.
    expect(list.seqs.length).toBeLessThanOrEqual(2 * 1_000 + 1_024)
    expect(list.oldest((seq) => seq >= 199_000)).toBe(199_000)
  })

  it('still drops stale numbers after the head, and keeps the rest in order', () => {
    const list = new Postings('ana@example.com')
    for (let seq = 0; seq < 1_000; seq++) list.add(seq, 1)
    const gone = new Set<number>()
    const isKept = (seq: number) => !gone.has(seq)
    // Three numbers in four leave (another account's evictions, deletions), never the oldest: the list is rebuilt.
    for (let seq = 1; seq < 1_000; seq++) {
      if (seq % 4 === 0) continue
      gone.add(seq)
      list.remove(1, isKept)
    }
    expect(list.live).toBe(250)
    expect(list.seqs.length - list.head).toBeLessThanOrEqual(2 * 250 + 16)
    expect(list.seqs.slice(list.head).filter(isKept)).toEqual(Array.from({ length: 250 }, (_, i) => i * 4))
    expect(list.oldest(isKept)).toBe(0)
  })
})
