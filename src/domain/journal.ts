import { JOURNAL_BODY_LIMIT, type JournalEntry } from '../schemas/journal.js'
import type { SandboxEvents } from './events.js'

export type { JournalEntry }

/** What a transport records: the entry without its id; the newer fields may be left out (null). */
export type JournalRecord = Omit<JournalEntry, 'id' | 'query' | 'error_message' | 'request_body' | 'response_body' | 'message_id' | 'request_headers'> &
  Partial<Pick<JournalEntry, 'query' | 'error_message' | 'request_body' | 'response_body' | 'message_id' | 'request_headers'>>

/** A body as the journal keeps it: at most {@link JOURNAL_BODY_LIMIT} characters. */
function bounded(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null
  return text.length > JOURNAL_BODY_LIMIT ? `${text.slice(0, JOURNAL_BODY_LIMIT)}…` : text
}

export type JournalListener = () => void

/**
 * Bounded request journal: newest last internally, listed newest first; the oldest entries
 * are evicted once `capacity` is reached.
 */
export class Journal {
  private entries: JournalEntry[] = []
  private start = 0
  private nextId = 1
  private readonly listeners = new Set<JournalListener>()
  private snapshotCache: readonly JournalEntry[] | null = null

  constructor(
    readonly capacity = 1_000,
    private readonly events?: SandboxEvents,
  ) {}

  /** Records one request (bodies cut to {@link JOURNAL_BODY_LIMIT} characters). */
  record(entry: JournalRecord): JournalEntry {
    const full: JournalEntry = {
      id: this.nextId++,
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
      request_headers: entry.request_headers ?? null,
      message_id: entry.message_id ?? null,
    }
    this.entries.push(full)
    if (this.entries.length - this.start > this.capacity) {
      this.start++
      if (this.start >= this.capacity) {
        this.entries = this.entries.slice(this.start)
        this.start = 0
      }
    }
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
    this.events?.emit({ type: 'request', entry: full })
    return full
  }

  /** Entries newest first, optionally only one account's. */
  list(filter: { account?: string } = {}): JournalEntry[] {
    const out: JournalEntry[] = []
    for (let i = this.entries.length - 1; i >= this.start; i--) {
      const entry = this.entries[i]
      if (filter.account === undefined || entry.account === filter.account) out.push(entry)
    }
    return out
  }

  get size(): number {
    return this.entries.length - this.start
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

  clear(): void {
    this.entries = []
    this.start = 0
    this.snapshotCache = null
    for (const listener of this.listeners) listener()
  }
}
