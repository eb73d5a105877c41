import { JOURNAL_BODY_LIMIT, type JournalEntry } from '../contract/journal.js'
import { ChangeLog } from './change-log.js'
import type { SandboxEvents } from './events.js'
import { FairStore } from './fair-collections.js'

export type { JournalEntry }

/** What a transport records: the entry without its id; the newer fields may be left out (null). */
export type JournalRecord = Omit<
  JournalEntry,
  'id' | 'query' | 'error_message' | 'request_body' | 'response_body' | 'message_id' | 'request_headers' | 'fault_id'
> &
  Partial<
    Pick<JournalEntry, 'query' | 'error_message' | 'request_body' | 'response_body' | 'message_id' | 'fault_id'>
  > & {
    /** The headers, or a function that makes them when the entry is first read (see `lazyJournalHeaders`). */
    request_headers?: JournalEntry['request_headers'] | (() => JournalEntry['request_headers'])
  }

/** A body as the journal keeps it: at most {@link JOURNAL_BODY_LIMIT} characters. */
function bounded(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null
  return text.length > JOURNAL_BODY_LIMIT ? `${text.slice(0, JOURNAL_BODY_LIMIT)}…` : text
}

/** Where an entry keeps its headers, or the function that makes them (non-enumerable: no reader sees it). */
const HEADERS = Symbol('sendbox.journal.headers')
type HeadersSlot = JournalEntry['request_headers'] | (() => JournalEntry['request_headers'])
type Slotted = { [HEADERS]: HeadersSlot }

/** Reused for every entry (its `value` set just before each use): no descriptor object per entry. */
const SLOT_DESCRIPTOR: PropertyDescriptor = { value: undefined, writable: true, enumerable: false, configurable: true }

/**
 * The one `request_headers` accessor of every entry: the same two functions each time, so entries
 * share their hidden class. (A literal's `get`/`set` made two closures and an old-generation
 * AccessorPair per request, and gave each entry a map of its own.)
 */
const HEADERS_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: Slotted) {
    const slot = this[HEADERS]
    if (typeof slot !== 'function') return slot
    const made = slot()
    this[HEADERS] = made
    return made
  },
  set(this: Slotted, value: JournalEntry['request_headers']) {
    this[HEADERS] = value
  },
}

/**
 * The stored entry. Headers given as a function are made at the entry's first read, by whoever
 * reads it (the list route, the event stream, the store, a UI), through an enumerable accessor:
 * JSON, spread and structured clone see a plain field, in its place among the fields.
 */
function entryOf(id: number, entry: JournalRecord): JournalEntry {
  const full = {
    id,
    at: entry.at,
    kind: entry.kind,
    method: entry.method,
    path: entry.path,
    query: entry.query ?? null,
    status: entry.status,
    duration_ms: entry.duration_ms,
    error_code: entry.error_code,
    error_message: bounded(entry.error_message),
    account: entry.account,
    key: entry.key,
    request_body: bounded(entry.request_body),
    response_body: bounded(entry.response_body),
  } as Record<string, unknown>
  SLOT_DESCRIPTOR.value = entry.request_headers ?? null
  Object.defineProperty(full, HEADERS, SLOT_DESCRIPTOR)
  SLOT_DESCRIPTOR.value = undefined
  Object.defineProperty(full, 'request_headers', HEADERS_ACCESSOR)
  full.message_id = entry.message_id ?? null
  full.fault_id = entry.fault_id ?? null
  return full as unknown as JournalEntry
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
  private entries: FairStore<number, JournalEntry>
  private nextId = 1
  private readonly listeners = new Set<JournalListener>()
  private snapshotCache: readonly JournalEntry[] | null = null

  constructor(
    readonly capacity = 1_000,
    private readonly events?: SandboxEvents,
  ) {
    this.entries = new FairStore(capacity)
  }

  /** Records one request (bodies cut to {@link JOURNAL_BODY_LIMIT} characters). */
  record(entry: JournalRecord): JournalEntry {
    const full = entryOf(this.nextId++, entry)
    const evicted = this.entries.add(full.id, full.account ?? '', full)
    this.changes?.touch(full.id)
    for (const id of evicted) this.changes?.touch(id)
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
    this.events?.emit({ type: 'request', entry: full })
    return full
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
      if (filter.account === undefined || entry.account === filter.account) out.push(entry)
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
    return this.entries.get(id)
  }

  /** Puts back entries a store kept (oldest first), before any request is recorded; ids carry on after the last. */
  restore(entries: readonly JournalEntry[]): void {
    for (const entry of entries.slice(-this.capacity)) this.entries.add(entry.id, entry.account ?? '', entry)
    this.nextId = Math.max(this.nextId, (entries.at(-1)?.id ?? 0) + 1)
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
