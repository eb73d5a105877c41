/**
 * The outbox's message ids to sequence numbers: an open-addressed hash table of numbers (linear
 * probing in a `Float64Array`), each slot checked against the message it names.
 *
 * Why not a `Map<string, number>`: at the outbox's 10,000 messages, with one id added and one
 * evicted per send, a second such Map doing the same work cost the standalone send ~2.3 µs
 * (`bench/experiments/http-duel.mjs`, 16 rounds): its ~0.9 MB table lives in the old generation,
 * holds a young key per send (a remembered-set entry each), is reallocated every ~22,000 sends as
 * deleted entries pile up, and is traced by every full collection. This table holds no pointers,
 * so the collector never reads it, and the id strings stay where they are, in the messages.
 *
 * Each slot keeps its id's hash beside it, so a probe reads a message only when the hashes match,
 * and a rebuild (when used and freed slots pass half the table) reads no message at all. It used
 * to rehash every kept id from its message, whose ids are scattered over the old generation: at the
 * default full outbox of 10,000 one send was held 5–31 ms every ~31,000 sends, at 100,000 87–117 ms
 * every 200,000 (now 0.3–3 and 6–10 ms: bench/experiments/full-outbox-stalls.mjs).
 */
export class IdIndex {
  /** `seq + 1` per used slot; 0: never used; -1: freed (a probe goes on past it). */
  private slots = new Float64Array(MIN_SLOTS)
  /** The hash of the id in each used or freed slot. */
  private hashes = new Uint32Array(MIN_SLOTS)
  private live = 0
  private freed = 0

  /** @param idAt the id of the message kept at `seq`, or undefined: what a slot is checked against. */
  constructor(private readonly idAt: (seq: number) => string | undefined) {}

  get(id: string): number | undefined {
    const { slots, hashes } = this
    const mask = slots.length - 1
    const hash = hashOf(id)
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const value = slots[i]
      if (value === 0) return undefined
      if (value > 0 && hashes[i] === hash && this.idAt(value - 1) === id) return value - 1
    }
  }

  has(id: string): boolean {
    return this.get(id) !== undefined
  }

  /** Maps `id` to `seq` (replacing what it mapped to). The message at `seq` may not be kept yet. */
  set(id: string, seq: number): void {
    if ((this.live + this.freed + 1) * 2 > this.slots.length) this.rebuild(this.live + 1)
    const { slots, hashes } = this
    const mask = slots.length - 1
    const hash = hashOf(id)
    let free = -1
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const value = slots[i]
      if (value === 0) {
        if (free === -1) free = i
        break
      }
      if (value < 0) {
        if (free === -1) free = i
      } else if (hashes[i] === hash && this.idAt(value - 1) === id) {
        slots[i] = seq + 1
        return
      }
    }
    if (slots[free] < 0) this.freed--
    slots[free] = seq + 1
    hashes[free] = hash
    this.live++
  }

  /** Forgets `id`: call it while the message is still kept at its sequence number. */
  delete(id: string): boolean {
    const { slots, hashes } = this
    const mask = slots.length - 1
    const hash = hashOf(id)
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const value = slots[i]
      if (value === 0) return false
      if (value > 0 && hashes[i] === hash && this.idAt(value - 1) === id) {
        slots[i] = -1
        this.live--
        this.freed++
        return true
      }
    }
  }

  clear(): void {
    this.slots = new Float64Array(MIN_SLOTS)
    this.hashes = new Uint32Array(MIN_SLOTS)
    this.live = 0
    this.freed = 0
  }

  /** A table for `wanted` entries at most a quarter full, without the freed slots: from the kept hashes, reading no message. */
  private rebuild(wanted: number): void {
    const { slots: oldSlots, hashes: oldHashes } = this
    let length = MIN_SLOTS
    while (length < wanted * 4) length *= 2
    const slots = new Float64Array(length)
    const hashes = new Uint32Array(length)
    const mask = length - 1
    for (let j = 0; j < oldSlots.length; j++) {
      const value = oldSlots[j]
      if (value <= 0) continue
      const hash = oldHashes[j]
      let i = hash & mask
      while (slots[i] !== 0) i = (i + 1) & mask
      slots[i] = value
      hashes[i] = hash
    }
    this.slots = slots
    this.hashes = hashes
    this.freed = 0
  }
}

const MIN_SLOTS = 16

/** FNV-1a over the UTF-16 units, then mixed (ids are random base62, but fixtures' ids are anything). */
function hashOf(id: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  hash ^= hash >>> 15
  hash = Math.imul(hash, 0x2c1b3c6d)
  return (hash ^ (hash >>> 12)) >>> 0
}
