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
    if (this.live > 0 && this.seqs.length - this.head > this.live * 2 + 16) {
      this.seqs = this.seqs.slice(this.head).filter(isKept)
      this.head = 0
    }
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

/** The three indexes. */
export class OutboxIndex {
  readonly byTo = new Map<string, Postings>()
  readonly byAccount = new Map<string, Postings>()
  readonly byChannel = new Map<string, Postings>()

  constructor(readonly isKept: (seq: number) => boolean) {}

  add(message: CapturedMessage, seq: number, weight: number): void {
    listOf(this.byTo, message.to.toLowerCase()).add(seq, weight)
    listOf(this.byAccount, message.account).add(seq, weight)
    listOf(this.byChannel, message.channel).add(seq, weight)
  }

  /** The message numbered `seq` left the outbox (call after it is no longer kept). */
  remove(message: CapturedMessage, weight: number): void {
    removeFrom(this.byTo, message.to.toLowerCase(), weight, this.isKept)
    removeFrom(this.byAccount, message.account, weight, this.isKept)
    removeFrom(this.byChannel, message.channel, weight, this.isKept)
  }

  clear(): void {
    this.byTo.clear()
    this.byAccount.clear()
    this.byChannel.clear()
  }
}

function listOf(map: Map<string, Postings>, key: string): Postings {
  let list = map.get(key)
  if (list === undefined) {
    list = new Postings()
    map.set(key, list)
  }
  return list
}

function removeFrom(map: Map<string, Postings>, key: string, weight: number, isKept: (seq: number) => boolean): void {
  const list = map.get(key)
  if (list === undefined) return
  list.remove(weight, isKept)
  if (list.live === 0) map.delete(key)
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
