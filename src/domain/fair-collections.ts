/**
 * The collections that evict or drop under a shared bound (issue 36, R1), with the rule of
 * fair-share.ts: the journal, webhook attempts and opt-outs ({@link FairStore}), the webhook
 * delivery queue ({@link FairQueue}). An owner is an account. See docs/decisions/fair-shares.md.
 */
import { evictionOwner } from './fair-share.js'

interface Kept<V> {
  value: V
  owner: string
  seq: number
}

/** One owner's keys, oldest first; a key re-added or removed leaves a stale pair that is skipped. */
interface OwnerKeys<K> {
  keys: K[]
  seqs: number[]
  head: number
}

/**
 * Items by key in the order they were added (a re-added key moves last), bounded by `capacity`:
 * past it, the owner {@link evictionOwner} names loses its own oldest item. So one owner at its
 * share only ever evicts its own, and an owner below its share takes room from the one holding most.
 */
export class FairStore<K, V> {
  private readonly items = new Map<K, Kept<V>>()
  private readonly owners = new Map<string, OwnerKeys<K>>()
  private readonly counts = new Map<string, number>()
  private seq = 0

  constructor(readonly capacity: number) {}

  /** Adds (or replaces, moving it last) `key`; returns the keys evicted to stay within the bound. */
  add(key: K, owner: string, value: V): K[] {
    this.remove(key)
    const seq = this.seq++
    this.items.set(key, { value, owner, seq })
    const evicted: K[] = []
    while (this.items.size > this.capacity) {
      // Counted before this item: is the adder (with it) over its share?
      const victim = evictionOwner(owner, this.counts, this.capacity)
      const gone = this.oldestOf(victim === owner || !this.counts.has(victim) ? owner : victim)
      if (gone === undefined) break
      this.remove(gone)
      evicted.push(gone)
    }
    // Listed under its owner only now: evicting the owner's last other item drops the owner's
    // list, and an item listed before that was left in no list (never evicted again: the store
    // grew past its bound, and each new item of that owner was evicted at once instead).
    let keys = this.owners.get(owner)
    if (keys === undefined) this.owners.set(owner, (keys = { keys: [], seqs: [], head: 0 }))
    keys.keys.push(key)
    keys.seqs.push(seq)
    this.counts.set(owner, (this.counts.get(owner) ?? 0) + 1)
    return evicted
  }

  /** The oldest key `owner` still holds (stale pairs dropped on the way). */
  private oldestOf(owner: string): K | undefined {
    const keys = this.owners.get(owner)
    if (keys === undefined) return undefined
    while (keys.head < keys.keys.length) {
      const key = keys.keys[keys.head]
      if (this.items.get(key)?.seq === keys.seqs[keys.head]) return key
      keys.head++
    }
    return undefined
  }

  /** Removes `key`; false when it was not kept. */
  remove(key: K): boolean {
    const kept = this.items.get(key)
    if (kept === undefined) return false
    this.items.delete(key)
    const count = (this.counts.get(kept.owner) ?? 1) - 1
    const keys = this.owners.get(kept.owner)!
    if (count === 0) {
      this.counts.delete(kept.owner)
      this.owners.delete(kept.owner)
    } else {
      this.counts.set(kept.owner, count)
      if (keys.head > 1024 && keys.head * 2 > keys.keys.length) {
        keys.keys = keys.keys.slice(keys.head)
        keys.seqs = keys.seqs.slice(keys.head)
        keys.head = 0
      }
    }
    return true
  }

  get(key: K): V | undefined {
    return this.items.get(key)?.value
  }

  has(key: K): boolean {
    return this.items.has(key)
  }

  /** Items `owner` holds. */
  heldBy(owner: string): number {
    return this.counts.get(owner) ?? 0
  }

  /** Values, oldest first. */
  values(): IterableIterator<V> {
    const entries = this.items.values()
    return (function* () {
      for (const kept of entries) yield kept.value
    })()
  }

  get size(): number {
    return this.items.size
  }

  clear(): void {
    this.items.clear()
    this.owners.clear()
    this.counts.clear()
  }
}

const NONE: readonly number[] = Object.freeze([])

/**
 * {@link FairStore} for keys that only grow (the journal's ids), with the same eviction rule: the
 * items in insertion order in three parallel arrays (key, item, owner), an evicted one leaving a
 * hole until the arrays are compacted in place. A map of `{ value, owner, seq }` wrappers made
 * three allocations per item, and the map's table was rebuilt every few hundred items; an entry
 * outlives ~1,000 requests, so all of it was copied out of the young generation under load
 * (`bench/experiments/promoted-bytes.mjs`). A lookup by key is a binary search.
 */
export class FairLog<V> {
  private readonly keys: number[] = []
  private readonly items: Array<V | undefined> = []
  private readonly owners: string[] = []
  /** Slots in use (items and holes); the arrays keep their length past it, so compaction frees nothing to grow again. */
  private end = 0
  private live = 0
  private readonly counts = new Map<string, number>()
  /** Per owner, the slot its oldest item is searched from: none of its items sits before it. */
  private readonly cursors = new Map<string, number>()

  constructor(readonly capacity: number) {}

  /** Adds `value` under `key` (greater than every key added before; else ignored); returns the keys evicted to stay within the bound. */
  add(key: number, owner: string, value: V): readonly number[] {
    if (this.end > 0 && !(key > this.keys[this.end - 1])) return NONE
    if (this.end - this.live > Math.max(1024, this.live)) this.compact()
    const slot = this.end++
    this.keys[slot] = key
    this.items[slot] = value
    this.owners[slot] = owner
    this.live++
    let evicted: number[] | undefined
    while (this.live > this.capacity) {
      // Counted before this item: is the adder (with it) over its share?
      const victim = evictionOwner(owner, this.counts, this.capacity)
      const gone = this.oldestOf(victim === owner || !this.counts.has(victim) ? owner : victim)
      if (gone < 0) break
      ;(evicted ??= []).push(this.keys[gone])
      this.drop(gone)
    }
    this.counts.set(owner, (this.counts.get(owner) ?? 0) + 1)
    return evicted ?? NONE
  }

  /** The slot of `owner`'s oldest item, or -1. */
  private oldestOf(owner: string): number {
    let slot = this.cursors.get(owner) ?? 0
    while (slot < this.end && (this.owners[slot] !== owner || this.items[slot] === undefined)) slot++
    this.cursors.set(owner, slot)
    return slot < this.end ? slot : -1
  }

  private drop(slot: number): void {
    const owner = this.owners[slot]
    this.items[slot] = undefined
    this.live--
    // The item being added is not counted yet: its owner may have none counted. Every owner's
    // cursor stays (nothing of the owner sits before it, its next items come after; compaction
    // clears them): dropped with the owner's last item, an owner at a share of 1 that evicts its
    // own oldest on each add (999 other owners holding one each) searched from slot 0 past the
    // others' items every time (5.1 -> 3.2 µs an add).
    const count = (this.counts.get(owner) ?? 1) - 1
    if (count <= 0) this.counts.delete(owner)
    else this.counts.set(owner, count)
  }

  /** Moves the items down over the holes, in order (the cursors start over). */
  private compact(): void {
    let to = 0
    for (let from = 0; from < this.end; from++) {
      if (this.items[from] === undefined) continue
      this.keys[to] = this.keys[from]
      this.items[to] = this.items[from]
      this.owners[to] = this.owners[from]
      to++
    }
    for (let slot = to; slot < this.end; slot++) this.items[slot] = undefined
    this.end = to
    this.cursors.clear()
  }

  get(key: number): V | undefined {
    let low = 0
    let high = this.end - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const found = this.keys[middle]
      if (found === key) return this.items[middle]
      if (found < key) low = middle + 1
      else high = middle - 1
    }
    return undefined
  }

  /** Items `owner` holds. */
  heldBy(owner: string): number {
    return this.counts.get(owner) ?? 0
  }

  /** Values, oldest first. */
  *values(): IterableIterator<V> {
    for (let slot = 0; slot < this.end; slot++) {
      const item = this.items[slot]
      if (item !== undefined) yield item
    }
  }

  get size(): number {
    return this.live
  }

  clear(): void {
    for (let slot = 0; slot < this.end; slot++) this.items[slot] = undefined
    this.end = 0
    this.live = 0
    this.counts.clear()
    this.cursors.clear()
  }
}

/**
 * Items waiting for a turn, per owner, bounded by `limit`: taken in turn from each owner that has
 * any (one owner's thousands never make another's one wait behind them), and past the limit the
 * owner {@link evictionOwner} names loses its oldest waiting item.
 */
export class FairQueue<T> {
  /** Owners with waiting items, in turn order (the next to be served first). */
  private readonly queues = new Map<string, T[]>()
  private readonly counts = new Map<string, number>()
  private total = 0

  constructor(private readonly limit: number) {}

  /** Queues `item` of `owner`; returns the item dropped to stay within the limit, if any. */
  push(owner: string, item: T): T | undefined {
    let queue = this.queues.get(owner)
    if (queue === undefined) this.queues.set(owner, (queue = []))
    let dropped: T | undefined
    if (this.total >= this.limit) {
      const victim = evictionOwner(owner, this.counts, this.limit)
      dropped = this.takeFrom(this.queues.has(victim) && (this.counts.get(victim) ?? 0) > 0 ? victim : owner)
    }
    queue.push(item)
    if (!this.queues.has(owner)) this.queues.set(owner, queue)
    this.counts.set(owner, (this.counts.get(owner) ?? 0) + 1)
    this.total++
    return dropped
  }

  /** True when the next push drops an item. */
  get full(): boolean {
    return this.total >= this.limit
  }

  /** Whose oldest item a push of `owner` drops when {@link full}: `owner` itself once at its share. */
  victimFor(owner: string): string {
    return evictionOwner(owner, this.counts, this.limit)
  }

  /** The next item: the oldest of the owner whose turn it is (that owner then goes last). */
  shift(): T | undefined {
    const next = this.queues.keys().next()
    if (next.done) return undefined
    const owner = next.value
    const item = this.takeFrom(owner)
    const queue = this.queues.get(owner)
    if (queue !== undefined) {
      this.queues.delete(owner)
      this.queues.set(owner, queue)
    }
    return item
  }

  private takeFrom(owner: string): T | undefined {
    const queue = this.queues.get(owner)
    if (queue === undefined || queue.length === 0) return undefined
    const item = queue.shift()!
    this.total--
    const count = (this.counts.get(owner) ?? 1) - 1
    if (count === 0) {
      this.counts.delete(owner)
      this.queues.delete(owner)
    } else this.counts.set(owner, count)
    return item
  }

  get length(): number {
    return this.total
  }

  clear(): void {
    this.queues.clear()
    this.counts.clear()
    this.total = 0
  }
}
