/**
 * A page of the outbox, its count, and a wait's first match, without filtering everything
 * (issue 37, item 3): from the newest, over the smallest index list the filter names (recipient,
 * account, channel), the count taken from the index when the filter is that list alone, the `q`
 * words searched in a text kept beside each message (an array slot, not a lookup per message).
 */
import type { CapturedMessage } from '../contract/captured-message.js'
import { matchesWords, searchWords } from '../contract/search.js'
import { compileFilter, type OutboxFilter } from './outbox-filter.js'
import { recipientKey, type OutboxIndex, type Postings } from './outbox-index.js'
import { searchTextFor } from './channels/index.js'

/** What a query reads of the outbox. */
export interface OutboxView {
  readonly entries: ReadonlyArray<CapturedMessage | null>
  readonly start: number
  readonly seqBase: number
  readonly live: number
  readonly index: OutboxIndex
  readonly search: SearchTexts
}

/** Messages per search block: a `q` word missing from a block's joined text skips the block at once. */
export const SEARCH_BLOCK = 512

/** Between two texts of a block's join: a newline, so that no `q` word (never whitespace) spans two messages. */
const JOIN = '\n\u0000'

/**
 * A full block's search texts, joined: the sequence number of each text in it (ascending) and
 * where each text ends in the join (the next begins {@link JOIN} later).
 */
interface JoinedBlock {
  readonly text: string
  readonly seqs: Int32Array
  readonly ends: Int32Array
}

/**
 * The outbox's search texts: each message's lower-cased text (made at its first search, kept
 * beside it by position) until its block of {@link SEARCH_BLOCK} sequence numbers is full and
 * searched; then the block's texts are one join (a message's text is a slice of it) that a
 * search scans with `indexOf` for its rarest word instead of visiting each message. A message that
 * left since a block was joined is skipped by position (its slot is empty).
 */
export class SearchTexts {
  private texts: Array<string | undefined> = []
  private readonly blocks = new Map<number, JoinedBlock>()

  constructor(private readonly view: Omit<OutboxView, 'search'>) {}

  push(): void {
    this.texts.push(undefined)
  }

  drop(position: number): void {
    this.texts[position] = undefined
  }

  /** The outbox dropped its first `start` positions; the new sequence base is `seqBase`. */
  compacted(start: number, seqBase: number): void {
    this.texts = this.texts.slice(start)
    for (const block of this.blocks.keys()) if ((block + 1) * SEARCH_BLOCK <= seqBase) this.blocks.delete(block)
  }

  clear(): void {
    this.texts = []
    this.blocks.clear()
  }

  /** The search text of the message at `position` (which must hold one). */
  text(position: number): string {
    const kept = this.texts[position]
    if (kept !== undefined) return kept
    const seq = this.view.seqBase + position
    const joined = this.blocks.get(Math.floor(seq / SEARCH_BLOCK))
    if (joined !== undefined) {
      const at = indexOfSeq(joined.seqs, seq)
      if (at !== -1) return joined.text.slice(at === 0 ? 0 : joined.ends[at - 1] + JOIN.length, joined.ends[at])
    }
    return (this.texts[position] = searchTextFor(this.view.entries[position]!))
  }

  /** A full block's join (made at its first search; its messages' own texts are then dropped: the join holds them). */
  block(block: number): JoinedBlock {
    let joined = this.blocks.get(block)
    if (joined === undefined) {
      const { start, seqBase, entries } = this.view
      const parts: string[] = []
      const seqs: number[] = []
      const ends: number[] = []
      let length = 0
      for (
        let p = Math.max(start, block * SEARCH_BLOCK - seqBase), end = (block + 1) * SEARCH_BLOCK - seqBase;
        p < end;
        p++
      ) {
        if (entries[p] == null) continue
        const text = this.text(p)
        length += (parts.length === 0 ? 0 : JOIN.length) + text.length
        parts.push(text)
        seqs.push(seqBase + p)
        ends.push(length)
        this.texts[p] = undefined
      }
      joined = { text: parts.join(JOIN), seqs: Int32Array.from(seqs), ends: Int32Array.from(ends) }
      this.blocks.set(block, joined)
    }
    return joined
  }

  /**
   * The positions in a full block whose messages hold every word, oldest first: the join is
   * scanned for `driver` (one of `words`, the rarest one hopes), and each message it lands in is
   * checked for all the words in its own text. Messages that left are skipped.
   */
  matchesIn(block: number, words: readonly string[], driver: string): number[] {
    const { text, seqs, ends } = this.block(block)
    const { start, seqBase, entries } = this.view
    const found: number[] = []
    // A block missing another word is skipped whole (the driver's own scan below tells for it).
    for (const word of words) if (word !== driver && !text.includes(word)) return found
    let part = 0
    let from = 0
    while (part < ends.length) {
      const at = text.indexOf(driver, from)
      if (at === -1) break
      while (part < ends.length && ends[part] <= at) part++ // the text the hit is in (or follows, for a hit in a separator)
      if (part === ends.length) break
      const position = seqs[part] - seqBase
      from = ends[part] + JOIN.length
      part++
      if (position >= start && entries[position] != null && matchesWords(this.text(position), words))
        found.push(position)
    }
    return found
  }
}

/** Where `seq` is in an ascending list of sequence numbers, or -1. */
function indexOfSeq(seqs: Int32Array, seq: number): number {
  let low = 0
  let high = seqs.length - 1
  while (low <= high) {
    const mid = (low + high) >> 1
    if (seqs[mid] === seq) return mid
    if (seqs[mid] < seq) low = mid + 1
    else high = mid - 1
  }
  return -1
}

/** Hits of each word counted up to this many in a sample text, to pick the one a scan follows. */
const SAMPLE_HITS = 64

/** Of a search's words, the one a sample text holds least often (the longest among equals): the scan follows it. */
function rarestWord(words: readonly string[], sample: string): string {
  let best = words[0]
  let bestHits = Infinity
  for (const word of words) {
    let hits = 0
    if (word !== '')
      for (let at = sample.indexOf(word); at !== -1 && hits < SAMPLE_HITS; at = sample.indexOf(word, at + word.length))
        hits++
    else hits = SAMPLE_HITS
    if (hits < bestHits || (hits === bestHits && word.length > best.length)) {
      best = word
      bestHits = hits
    }
  }
  return best
}

/** Messages a query returns and, when asked, how many match in all. */
export interface QueryResult {
  data: CapturedMessage[]
  total: number
}

const NARROWING = ['to', 'account', 'channel'] as const

/** The smallest index list the filter (and a team's single account) names, or null when one named list is empty, undefined when none is named. */
function candidates(
  view: OutboxView,
  filter: OutboxFilter,
  accounts: ReadonlySet<string> | undefined,
): { list: Postings | null; alone: boolean } | undefined {
  const named: Array<Postings | undefined> = []
  if (filter.to !== undefined) named.push(view.index.byTo.get(recipientKey(filter.to)))
  if (filter.account !== undefined) named.push(view.index.byAccount.get(filter.account))
  if (filter.channel !== undefined) named.push(view.index.byChannel.get(filter.channel))
  if (accounts !== undefined && accounts.size === 1 && filter.account === undefined)
    named.push(view.index.byAccount.get([...accounts][0]))
  if (named.length === 0) return undefined
  if (named.some((list) => list === undefined)) return { list: null, alone: true }
  const lists = named as Postings[]
  const smallest = lists.reduce((a, b) => (b.live < a.live ? b : a))
  const others = Object.entries(filter).filter(
    ([key, value]) => value !== undefined && !(NARROWING as readonly string[]).includes(key),
  )
  return { list: smallest, alone: lists.length === 1 && others.length === 0 }
}

/** The count without visiting the messages, when the filter allows it. */
function knownTotal(
  view: OutboxView,
  filter: OutboxFilter,
  accounts: ReadonlySet<string> | undefined,
  narrowed: ReturnType<typeof candidates>,
): number | undefined {
  if (narrowed !== undefined) {
    if (narrowed.list === null) return 0
    if (!narrowed.alone) return undefined
    if (accounts === undefined) return narrowed.list.live
    if (filter.account !== undefined) return accounts.has(filter.account) ? narrowed.list.live : 0
    return accounts.size === 1 ? narrowed.list.live : undefined
  }
  if (Object.values(filter).some((value) => value !== undefined)) return undefined
  if (accounts === undefined) return view.live
  let total = 0
  for (const account of accounts) total += view.index.byAccount.get(account)?.live ?? 0
  return total
}

/**
 * Matching messages newest first: `skip` of them passed over, at most `take` returned; `total` is
 * every match's count when `countAll` (else the count seen so far); a message `hidden` accepts is passed over.
 */
export function queryOutbox(
  view: OutboxView,
  filter: OutboxFilter,
  accounts: ReadonlySet<string> | undefined,
  skip: number,
  take: number,
  countAll: boolean,
  hidden?: (id: string) => boolean,
): QueryResult {
  const narrowed = candidates(view, filter, accounts)
  const known = countAll ? knownTotal(view, filter, accounts, narrowed) : undefined
  const data: CapturedMessage[] = []
  if (narrowed?.list === null) return { data, total: 0 }
  const words = filter.q === undefined ? undefined : searchWords(filter.q)
  const rest = compileFilter({ ...filter, q: undefined })
  let seen = 0
  const consider = (position: number, wordsFound = false): boolean => {
    const m = view.entries[position]
    if (m === null || m === undefined) return true
    if (accounts !== undefined && !accounts.has(m.account)) return true
    if (!rest(m) || (words !== undefined && !wordsFound && !matchesWords(view.search.text(position), words)))
      return true
    if (seen >= skip && data.length < take) data.push(m)
    seen++
    return known === undefined && countAll ? true : data.length < take
  }
  if (narrowed === undefined) {
    // The newest, partial block message by message; then, for a search, each full block's join
    // scanned for the rarest word (see SearchTexts.matchesIn), else every message.
    const fullBlocks = Math.floor((view.seqBase + view.entries.length) / SEARCH_BLOCK)
    const partialFrom =
      words === undefined ? view.start : Math.max(view.start, fullBlocks * SEARCH_BLOCK - view.seqBase)
    let going = true
    for (let i = view.entries.length - 1; going && i >= partialFrom; i--) going = consider(i)
    if (words !== undefined && going) {
      const oldestBlock = Math.floor((view.seqBase + view.start) / SEARCH_BLOCK)
      const driver =
        fullBlocks - 1 >= oldestBlock ? rarestWord(words, view.search.block(fullBlocks - 1).text) : words[0]
      for (let block = fullBlocks - 1; going && block >= oldestBlock; block--) {
        const hits = view.search.matchesIn(block, words, driver)
        for (let k = hits.length - 1; going && k >= 0; k--) going = consider(hits[k], true)
      }
    }
  } else {
    const { seqs, head } = narrowed.list!
    for (let i = seqs.length - 1; i >= head; i--) {
      const position = seqs[i] - view.seqBase
      if (position >= view.start && !consider(position)) break
    }
  }
  return { data, total: known ?? seen }
}
