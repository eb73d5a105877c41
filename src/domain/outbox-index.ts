/**
 * The outbox's indexes (issue 37, item 3): for each recipient, account and channel, the sequence
 * numbers of its messages (oldest first) and how many of them are still kept, so that a page,
 * a count and a wait narrowed by one of them visit only its messages, and the caps find an
 * account's oldest message and its share at once (issue 36, R1).
 *
 * A message that leaves (evicted, deleted) stays in its lists as a stale number until a list is
 * half stale (then it is rebuilt) or empty (then it is dropped): reads skip what the outbox no
 * longer holds. Memory is bounded by twice the messages kept.
 */
import type { CapturedMessage } from '../contract/captured-message.js'

/** The messages of one recipient, account or channel. */
export class Postings {
  /** The key the list is under in its index (a `to` lower-cased). */
  constructor(readonly key: string) {}

  /** Sequence numbers, oldest first (some may be stale). */
  seqs: number[] = []
  /** First position that may still be kept (everything before it is stale). */
  head = 0
  /** Messages of this list still kept. */
  live = 0
  /** Bytes those messages hold (kept for the accounts' lists: the byte cap's shares). */
  bytes = 0

  add(seq: number, weight: number): void {
    this.seqs.push(seq)
    this.live++
    this.bytes += weight
  }

  /** One of this list's messages left; `isKept` tells which numbers still are. */
  remove(weight: number, isKept: (seq: number) => boolean): void {
    this.live--
    this.bytes -= weight
    while (this.head < this.seqs.length && !isKept(this.seqs[this.head])) this.head++
    // Half stale after the head (deletions, another account's evictions): rebuilt from what is kept.
    // Or a long stale prefix (the oldest evicted first, as a full outbox does on every send): dropped.
    // Without the second, a list kept a number for every message it ever had (a million sends to one
    // recipient: three arrays of a million).
    if (this.live > 0 && this.seqs.length - this.head > this.live * 2 + 16) this.compact(isKept)
    else if (this.head >= 1024 && this.head * 2 >= this.seqs.length) this.compact(() => true)
  }

  /** Keeps, in place and in order, the numbers after the head that `keep` accepts. */
  private compact(keep: (seq: number) => boolean): void {
    const seqs = this.seqs
    let to = 0
    for (let from = this.head; from < seqs.length; from++) if (keep(seqs[from])) seqs[to++] = seqs[from]
    seqs.length = to
    this.head = 0
  }

  /** The oldest kept sequence number (the list must not be empty). */
  oldest(isKept: (seq: number) => boolean): number {
    while (!isKept(this.seqs[this.head])) this.head++
    return this.seqs[this.head]
  }
}

/** A recipient as the index and the `to` filter compare it: lower-cased, a URL-decoded `+` (a leading space before a digit) restored. */
export function recipientKey(to: string): string {
  const lower = to.toLowerCase()
  return lower.startsWith(' ') && /^ [0-9]/.test(lower) ? `+${lower.slice(1)}` : lower.trim()
}

/**
 * One index: its lists by key, and the list of the key added last (sends come in runs to one
 * recipient, from one account, on one channel: a run finds its list without a lookup, and a
 * recipient is lower-cased once per run).
 */
class Lists {
  readonly map = new Map<string, Postings>()
  private lastKey: string | undefined
  private lastList: Postings | undefined

  constructor(private readonly keyOf: (value: string) => string) {}

  /** The list of `value`'s key, made when it has none. */
  of(value: string): Postings {
    let list = this.remembered(value)
    if (list !== undefined) return list
    const key = this.keyOf(value)
    list = this.map.get(key)
    if (list === undefined) {
      list = new Postings(key)
      this.map.set(key, list)
    }
    this.lastKey = value
    this.lastList = list
    return list
  }

  /** `value`'s list lost a message. */
  remove(value: string, weight: number, isKept: (seq: number) => boolean): void {
    const list = this.remembered(value) ?? this.map.get(this.keyOf(value))
    if (list === undefined) return
    list.remove(weight, isKept)
    if (list.live === 0) this.map.delete(list.key)
  }

  /** The list of the value added last, when `value` is it (a list leaves the map only once empty: while it holds any, it is still the map's). */
  private remembered(value: string): Postings | undefined {
    return value === this.lastKey && this.lastList!.live > 0 ? this.lastList : undefined
  }

  clear(): void {
    this.map.clear()
    this.lastKey = undefined
    this.lastList = undefined
  }
}

const asIs = (value: string) => value
const lowerCased = (value: string) => value.toLowerCase()

/** The three indexes. */
export class OutboxIndex {
  private readonly to = new Lists(lowerCased)
  private readonly account = new Lists(asIs)
  private readonly channel = new Lists(asIs)
  readonly byTo = this.to.map
  readonly byAccount = this.account.map
  readonly byChannel = this.channel.map

  constructor(readonly isKept: (seq: number) => boolean) {}

  add(message: CapturedMessage, seq: number, weight: number): void {
    this.to.of(message.to).add(seq, weight)
    this.account.of(message.account).add(seq, weight)
    this.channel.of(message.channel).add(seq, weight)
  }

  /** The message numbered `seq` left the outbox (call after it is no longer kept). */
  remove(message: CapturedMessage, weight: number): void {
    this.to.remove(message.to, weight, this.isKept)
    this.account.remove(message.account, weight, this.isKept)
    this.channel.remove(message.channel, weight, this.isKept)
  }

  clear(): void {
    this.to.clear()
    this.account.clear()
    this.channel.clear()
  }
}

/**
 * The sequence number a cap evicts (issue 36, R1): the oldest message of the account holding the
 * most messages (for the byte cap: the most bytes), the oldest overall among equals. An account
 * flooding the outbox evicts its own oldest, never another's below its share; with one account
 * it is the oldest message, as before. The index must hold at least one message.
 */
export function oldestOfLargestAccount(index: OutboxIndex, forBytes: boolean): number {
  let best = -1
  let chosen = Infinity
  for (const list of index.byAccount.values()) {
    const size = forBytes ? list.bytes : list.live
    if (size < best) continue
    const oldest = list.oldest(index.isKept)
    if (size > best || oldest < chosen) {
      best = size
      chosen = oldest
    }
  }
  return chosen
}
