/**
 * Fair shares of a shared bound (issue 36, item 1), in one place for every bound that enforces
 * them: the waiters and event clients (held slots), the journal and webhook attempts (collections
 * that evict), and the outbox may use it as well.
 *
 * The rule: with `n` owners (accounts, or teams) a bound of `capacity` gives each a share of
 * `capacity / n`. An owner at or over its share never takes room another owner below its share
 * could still claim: a collection evicts that owner's own oldest; a slot is refused (503). An
 * owner below its share takes room from the owner holding most. With one owner this is the plain
 * bound. See docs/decisions/fair-shares.md.
 */

/** Each owner's share of `capacity` among `owners` owners (at least 1). */
export function shareOf(capacity: number, owners: number): number {
  return Math.max(1, Math.floor(capacity / Math.max(1, owners)))
}

/**
 * Whose item gives way when a full collection takes one more item of `adder`: the adder's own
 * when it holds its share or more, else the owner holding most (over its share, since the
 * collection is full and the adder is below). `held` counts each owner's items now.
 *
 * @example
 * evictionOwner('b', new Map([['a', 99], ['b', 1]]), 100) // 'a': b is below its share of 50
 */
export function evictionOwner<O>(
  adder: O,
  held: ReadonlyMap<O, number>,
  capacity: number,
  owners = held.size + (held.has(adder) ? 0 : 1),
): O {
  if ((held.get(adder) ?? 0) >= shareOf(capacity, owners)) return adder
  let most = adder
  let count = -1
  for (const [owner, n] of held) {
    if (n > count) {
      most = owner
      count = n
    }
  }
  return most
}

/**
 * Slots held for a while (a long-poll, an event stream) per owner, under one capacity. An owner
 * below its share takes a slot whenever one is free; an owner at its share only takes room that
 * no other owner below its share could still claim.
 */
export class SlotShares<O> {
  private readonly held = new Map<O, number>()
  private taken = 0

  /** `capacity` and `owners` are read at each take (settings may differ per sandbox). */
  constructor(
    private readonly capacity: () => number,
    private readonly owners: () => number,
  ) {}

  /** Slots held by every owner. */
  get total(): number {
    return this.taken
  }

  /** Slots `owner` holds. */
  heldBy(owner: O): number {
    return this.held.get(owner) ?? 0
  }

  /** Takes a slot for `owner`; false when the bound is full or the rest is kept for the others' shares. */
  take(owner: O): boolean {
    const capacity = this.capacity()
    if (this.taken >= capacity) return false
    const owners = Math.max(1, this.owners())
    const share = shareOf(capacity, owners)
    const mine = this.heldBy(owner)
    if (mine >= share) {
      let reserved = 0
      let counted = 0
      for (const [other, n] of this.held) {
        if (other === owner) continue
        reserved += Math.max(0, share - n)
        counted++
      }
      // Owners that hold nothing yet keep their whole share.
      reserved += Math.max(0, owners - 1 - counted) * share
      if (capacity - this.taken - 1 < reserved) return false
    }
    this.held.set(owner, mine + 1)
    this.taken++
    return true
  }

  /** Gives back a slot `owner` took. */
  release(owner: O): void {
    const mine = this.heldBy(owner)
    if (mine <= 0) return
    if (mine === 1) this.held.delete(owner)
    else this.held.set(owner, mine - 1)
    this.taken--
  }
}
