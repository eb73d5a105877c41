/** One line of the request journal. */
export interface JournalEntry {
  id: number
  /** ISO 8601 time the request arrived. */
  at: string
  kind: 'api' | 'webhook'
  method: string
  path: string
  status: number
  duration_ms: number
  error_code: string | null
  account: string | null
  /** The API key, masked (`test_…ter`); never the key itself. */
  key: string | null
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

  constructor(readonly capacity = 1_000) {}

  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: this.nextId++, ...entry }
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
