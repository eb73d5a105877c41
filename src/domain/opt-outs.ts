/**
 * Numbers that replied STOP, per account: a later SMS or WhatsApp send to one of them is accepted
 * as every send is (200 `queued`) and fails in the lifecycle with reason `opted out (STOP)`.
 * Plain data in a small store of its own (a persistence adapter may keep it later).
 */
import { ChangeLog } from './change-log.js'
import { FairStore } from './fair-collections.js'

/** Replies that opt a number out of the account it replied to (case-insensitive, trimmed). */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const
/** Replies that opt a number back in. */
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'] as const
/** Replies captured like any other, named for the documentation's keyword table. */
export const HELP_KEYWORDS = ['HELP'] as const

/** The failure reason of a send to an opted-out number. */
export const OPTED_OUT_REASON = 'opted out (STOP)'

/** One opted-out number of one account. */
export interface OptOut {
  account: string
  number: string
  /** The keyword that opted it out (`STOP`…), or `manual` when added through the controls. */
  keyword: string
  at: string
}

/**
 * A keyword as compared: trimmed, ASCII letters upper-cased and nothing else. A locale-free fold
 * (issue 36, R19): `toUpperCase` turns `ſ` (long s) into `S` and `ı` into `I`, so `ſtop` opted out.
 */
export function foldKeyword(text: string): string {
  return text.trim().replace(/[a-z]+/g, (letters) => letters.toUpperCase())
}

/** What a reply's text does: opt out, opt in, or nothing (HELP and every other text). */
export function keywordAction(text: string): 'opt_out' | 'opt_in' | null {
  const word = foldKeyword(text)
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return 'opt_out'
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return 'opt_in'
  return null
}

/** At most this many opt-outs are kept; past it an account at its share loses its own oldest (see {@link FairStore}). */
export const MAX_OPT_OUTS = 100_000

/** The opted-out numbers of every account. */
export class OptOutStore {
  private readonly entries = new FairStore<string, OptOut>(MAX_OPT_OUTS)
  private changes: ChangeLog<string> | undefined

  /** An opt-out's key: account, NUL, number (what the {@link ChangeLog} records). */
  static keyOf(account: string, number: string): string {
    return `${account}\u0000${number}`
  }

  /** Starts recording changes for a persistence adapter (see {@link ChangeLog}); returns the log. */
  trackChanges(): ChangeLog<string> {
    this.changes ??= new ChangeLog()
    return this.changes
  }

  /** The opt-out under a {@link OptOutStore.keyOf} key, if kept. */
  byKey(key: string): OptOut | undefined {
    const found = this.entries.get(key)
    return found && { ...found }
  }

  /** Puts back opt-outs a store kept, oldest first (not recorded as changes). */
  restore(list: readonly OptOut[]): void {
    for (const entry of list.slice(-MAX_OPT_OUTS))
      this.entries.add(OptOutStore.keyOf(entry.account, entry.number), entry.account, { ...entry })
  }

  /** Opts `number` out of `account` (again: the newer keyword and time win). */
  add(entry: OptOut): OptOut {
    const key = OptOutStore.keyOf(entry.account, entry.number)
    const evicted = this.entries.add(key, entry.account, { ...entry })
    this.changes?.touch(key)
    for (const gone of evicted) this.changes?.touch(gone)
    return entry
  }

  /** Opts it back in; false when it was not opted out. */
  remove(account: string, number: string): boolean {
    this.changes?.touch(OptOutStore.keyOf(account, number))
    return this.entries.remove(OptOutStore.keyOf(account, number))
  }

  /** The opt-out of `number` in `account`, if any. */
  get(account: string, number: string): OptOut | undefined {
    return this.entries.get(OptOutStore.keyOf(account, number))
  }

  /** Every opt-out (of one account when given), oldest first, as plain copies. */
  list(account?: string): OptOut[] {
    return [...this.entries.values()]
      .filter((e) => account === undefined || e.account === account)
      .map((e) => ({ ...e }))
  }

  /**
   * One page of the opt-outs of `accounts` (every account when undefined), oldest first, and how
   * many there are in all: copies the page only (a list of 100,000 is walked, not copied).
   */
  page(accounts: ReadonlySet<string> | undefined, skip: number, take: number): { data: OptOut[]; total: number } {
    const data: OptOut[] = []
    let total = 0
    for (const entry of this.entries.values()) {
      if (accounts !== undefined && !accounts.has(entry.account)) continue
      if (total >= skip && data.length < take) data.push({ ...entry })
      total++
    }
    return { data, total }
  }

  get size(): number {
    return this.entries.size
  }

  clear(): void {
    this.changes?.clear()
    this.entries.clear()
  }
}
