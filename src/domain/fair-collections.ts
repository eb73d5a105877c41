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
    let keys = this.owners.get(owner)
    if (keys === undefined) this.owners.set(owner, (keys = { keys: [], seqs: [], head: 0 }))
    keys.keys.push(key)
    keys.seqs.push(seq)
    const evicted: K[] = []
    while (this.items.size > this.capacity) {
      // Counted before this item: is the adder (with it) over its share?
      const victim = evictionOwner(owner, this.counts, this.capacity)
      const gone = this.oldestOf(victim === owner || !this.counts.has(victim) ? owner : victim)
      if (gone === undefined) break
      this.remove(gone)
      evicted.push(gone)
    }
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
