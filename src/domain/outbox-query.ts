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
import { searchTextOf } from './channels/index.js'

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

/**
 * The outbox's search texts: each message's lower-cased text (made at its first search, kept
 * beside it by position), and per full block of {@link SEARCH_BLOCK} sequence numbers their
 * join. A message that left since a block was joined only makes a false hit there, which the
 * message's own text then refutes.
 */
export class SearchTexts {
  private texts: Array<string | undefined> = []
  private readonly blocks = new Map<number, string>()

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

  text(position: number): string {
    return (this.texts[position] ??= searchTextOf(this.view.entries[position]!))
  }

  block(block: number): string {
    let text = this.blocks.get(block)
    if (text === undefined) {
      const { start, seqBase, entries } = this.view
      const parts: string[] = []
      for (
        let p = Math.max(start, block * SEARCH_BLOCK - seqBase), end = (block + 1) * SEARCH_BLOCK - seqBase;
        p < end;
        p++
      )
        if (entries[p] != null) parts.push(this.text(p))
      text = parts.join('\n\u0000')
      this.blocks.set(block, text)
    }
    return text
  }
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
 * every match's count when `countAll` (else the count seen so far).
 */
export function queryOutbox(
  view: OutboxView,
  filter: OutboxFilter,
  accounts: ReadonlySet<string> | undefined,
  skip: number,
  take: number,
  countAll: boolean,
): QueryResult {
  const narrowed = candidates(view, filter, accounts)
  const known = countAll ? knownTotal(view, filter, accounts, narrowed) : undefined
  const data: CapturedMessage[] = []
  if (narrowed?.list === null) return { data, total: 0 }
  const words = filter.q === undefined ? undefined : searchWords(filter.q)
  const rest = compileFilter({ ...filter, q: undefined })
  let seen = 0
  const consider = (position: number): boolean => {
    const m = view.entries[position]
    if (m === null || m === undefined) return true
    if (accounts !== undefined && !accounts.has(m.account)) return true
    if (!rest(m) || (words !== undefined && !matchesWords(view.search.text(position), words))) return true
    if (seen >= skip && data.length < take) data.push(m)
    seen++
    return known === undefined && countAll ? true : data.length < take
  }
  if (narrowed === undefined) {
    // Blocks whose sequence numbers are all taken (the newest, partial one is read message by message).
    const fullBlocks = Math.floor((view.seqBase + view.entries.length) / SEARCH_BLOCK)
    let checked = -1 // the block whose join holds every word (its messages are read one by one)
    for (let i = view.entries.length - 1; i >= view.start; i--) {
      const block = Math.floor((view.seqBase + i) / SEARCH_BLOCK)
      if (words !== undefined && block < fullBlocks && block !== checked) {
        if (!matchesWords(view.search.block(block), words)) {
          i = block * SEARCH_BLOCK - view.seqBase
          continue
        }
        checked = block
      }
      if (!consider(i)) break
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
