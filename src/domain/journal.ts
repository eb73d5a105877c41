import { JOURNAL_BODY_LIMIT, type JournalEntry } from '../contract/journal.js'
import { ChangeLog } from './change-log.js'
import type { SandboxEvents } from './events.js'
import { FairLog } from './fair-collections.js'
import { journalHeadersOf, type PackedHeaders } from './journal-headers.js'

export type { JournalEntry }

/** What a transport records: the entry without its id; the newer fields may be left out (null). */
export type JournalRecord = Omit<
  JournalEntry,
  | 'id'
  | 'path'
  | 'query'
  | 'error_message'
  | 'request_body'
  | 'response_body'
  | 'message_id'
  | 'request_headers'
  | 'fault_id'
> &
  Partial<Pick<JournalEntry, 'error_message' | 'request_body' | 'response_body' | 'message_id' | 'fault_id'>> & {
    request_headers?: JournalEntry['request_headers']
    /** The raw headers instead, formatted when the entry is first read ({@link journalHeadersOf}). */
    packed_headers?: PackedHeaders
  } & (
    | (Pick<JournalEntry, 'path'> & Partial<Pick<JournalEntry, 'query'>> & { url?: undefined })
    /** The request's URL instead: its path and query are read from it when the entry is first read. */
    | { url: URL; path?: undefined; query?: undefined }
  )

/** A body as the journal keeps it: at most {@link JOURNAL_BODY_LIMIT} characters. */
function bounded(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null
  return text.length > JOURNAL_BODY_LIMIT ? `${text.slice(0, JOURNAL_BODY_LIMIT)}…` : text
}

type Headers = JournalEntry['request_headers']

/**
 * A kept entry: the entry's fields, in the entry's order, and — when the transport gave its
 * headers raw — those in a private field, formatted at the entry's first read through the
 * journal ({@link KeptEntry.settled}: the list route, the event stream, the store, a UI). JSON,
 * spread and structured clone see the plain fields only. (An accessor defined on each entry cost
 * two `Object.defineProperty` calls per request; formatting the headers up front ~10 µs.)
 */
class KeptEntry implements JournalEntry {
  readonly id: number
  readonly at: string
  readonly kind: JournalEntry['kind']
  readonly method: string
  path: string
  query: string | null
  readonly status: number
  readonly duration_ms: number
  readonly error_code: string | null
  readonly error_message: string | null
  readonly account: string | null
  readonly key: string | null
  readonly request_body: string | null
  readonly response_body: string | null
  request_headers: Headers
  readonly message_id: string | null
  readonly fault_id: string | null
  #headers: PackedHeaders | undefined
  /** Read for the path and query at the first read (the standalone server's is shared by every request to its path). */
  #url: URL | undefined

  constructor(id: number, entry: JournalRecord) {
    this.id = id
    this.at = entry.at
    this.kind = entry.kind
    this.method = entry.method
    if (entry.url === undefined) {
      this.path = entry.path
      this.query = entry.query ?? null
    } else {
      this.path = ''
      this.query = null
      this.#url = entry.url
    }
    this.status = entry.status
    this.duration_ms = entry.duration_ms
    this.error_code = entry.error_code
    this.error_message = bounded(entry.error_message)
    this.account = entry.account
    this.key = entry.key
    this.request_body = bounded(entry.request_body)
    this.response_body = bounded(entry.response_body)
    this.request_headers = entry.request_headers ?? null
    this.#headers = entry.packed_headers
    this.message_id = entry.message_id ?? null
    this.fault_id = entry.fault_id ?? null
  }

  /** The entry with its headers made (once). */
  settled(): JournalEntry {
    if (this.#url !== undefined) {
      this.path = this.#url.pathname
      this.query = this.#url.search === '' ? null : this.#url.search.slice(1)
      this.#url = undefined
    }
    if (this.#headers !== undefined) {
      this.request_headers = journalHeadersOf(this.#headers)
      this.#headers = undefined
    }
    return this
  }
}

/** An entry as readers get it: a kept one settled, a restored one (a plain object from the store) as it is. */
function read(entry: KeptEntry | JournalEntry): JournalEntry {
  return entry instanceof KeptEntry ? entry.settled() : entry
}

export type JournalListener = () => void

/** Web origins whose unauthenticated requests are being throttled, at most (then the map starts over). */
export const MAX_TRACKED_ORIGINS = 1_000

/**
 * Bounded request journal: newest last internally, listed newest first. Past `capacity` an
 * entry is evicted fairly between accounts (issue 36, R1: an account at its share loses its own
 * oldest, one below it takes room from the account holding most; requests without an account
 * are one more owner).
 */
export class Journal {
  private entries: FairLog<KeptEntry | JournalEntry>
  private nextId = 1
  private readonly listeners = new Set<JournalListener>()
  private snapshotCache: readonly JournalEntry[] | null = null

  constructor(
    readonly capacity = 1_000,
    private readonly events?: SandboxEvents,
  ) {
    this.entries = new FairLog(capacity)
  }

  /** Records one request (bodies cut to {@link JOURNAL_BODY_LIMIT} characters); gives its id. */
  record(entry: JournalRecord): number {
    const kept = new KeptEntry(this.nextId++, entry)
    const evicted = this.entries.add(kept.id, kept.account ?? '', kept)
    if (this.changes !== undefined) {
      this.changes.touch(kept.id)
      for (const id of evicted) this.changes.touch(id)
    }
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
    if (this.events !== undefined && this.events.size > 0) this.events.emit({ type: 'request', entry: kept.settled() })
    return kept.id
  }

  /**
   * Whether to journal a request that carried no valid key and came from a web page (`Origin`):
   * at most one a second per origin, the next one admitted saying how many were left out. A page
   * on another site could otherwise evict the whole journal with keyless POSTs in two seconds
   * (issue 27, N10). Returns the note to add to the admitted entry (`''` for none), or undefined
   * to skip this one. At most {@link MAX_TRACKED_ORIGINS} origins are tracked (then forgotten).
   */
  admitAnonymous(origin: string, now: number): string | undefined {
    let seen = this.anonymous.get(origin)
    if (seen !== undefined && now - seen.at < 1_000) {
      seen.skipped++
      return undefined
    }
    if (seen === undefined) {
      if (this.anonymous.size >= MAX_TRACKED_ORIGINS) this.anonymous.clear()
      seen = { at: now, skipped: 0 }
      this.anonymous.set(origin, seen)
    }
    const note =
      seen.skipped > 0
        ? ` (${seen.skipped} more unauthenticated request${seen.skipped === 1 ? '' : 's'} from ${origin.slice(0, 100)} were not journaled: at most one a second per web origin)`
        : ''
    seen.at = now
    seen.skipped = 0
    return note
  }

  private readonly anonymous = new Map<string, { at: number; skipped: number }>()

  /** Entries newest first, optionally only one account's. */
  list(filter: { account?: string } = {}): JournalEntry[] {
    const out: JournalEntry[] = []
    for (const entry of this.entries.values())
      if (filter.account === undefined || entry.account === filter.account) out.push(read(entry))
    return out.reverse()
  }

  get size(): number {
    return this.entries.size
  }

  /** Entries of `account` kept (null: requests without one). */
  heldBy(account: string | null): number {
    return this.entries.heldBy(account ?? '')
  }

  /** A stable array for `useSyncExternalStore`: same reference until something changes. */
  snapshot = (): readonly JournalEntry[] => {
    this.snapshotCache ??= this.list()
    return this.snapshotCache
  }

  subscribe = (listener: JournalListener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Starts recording changes for a persistence adapter (see {@link ChangeLog}); returns the log. */
  trackChanges(): ChangeLog<number> {
    this.changes ??= new ChangeLog()
    return this.changes
  }

  /** The entry with this id, if it is still kept. */
  get(id: number): JournalEntry | undefined {
    const entry = this.entries.get(id)
    return entry === undefined ? undefined : read(entry)
  }

  /** Puts back entries a store kept (oldest first: an id not above the one before is dropped), before any request is recorded; ids carry on after the highest. */
  restore(entries: readonly JournalEntry[]): void {
    for (const entry of entries.slice(-this.capacity)) this.entries.add(entry.id, entry.account ?? '', entry)
    for (const entry of entries) this.nextId = Math.max(this.nextId, entry.id + 1)
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
  }

  private changes: ChangeLog<number> | undefined

  clear(): void {
    this.changes?.clear()
    this.entries.clear()
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
  }
}
