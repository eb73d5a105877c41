/**
 * A live, paged list of a /__sandbox listing (newest first): pages are fetched when the rows
 * they hold scroll into view, live events are prepended or patched in place, and listeners are
 * told at most once per frame, so 10,000 rows and a burst of events stay smooth.
 */
import { getPage } from './api.js'

export interface FeedOptions<T> {
  path: string
  key(item: T): string
  pageSize?: number
  /** Fetch every page at once (the journal, which holds at most a thousand lines). */
  eager?: boolean
}

export class PagedFeed<T> {
  /** Newest first; `undefined` marks a row not fetched yet. */
  rows: (T | undefined)[] = []
  loaded = false
  error: string | null = null
  /** Bumped on every change; what a component compares. */
  version = 0
  private query = new URLSearchParams()
  private generation = 0
  private readonly inFlight = new Map<number, Promise<void>>()
  /** Keys of the rows fetched so far: a live event for an unlisted item costs no scan. */
  private readonly listed = new Set<string>()
  private readonly listeners = new Set<() => void>()
  private scheduled = false
  private controller = new AbortController()
  /**
   * Live changes made while page 1 of a reload is on its way, replayed onto its answer: that
   * answer may have been read on the server before them (another connection than the event
   * stream), and would otherwise drop an item that arrived as the page opened.
   */
  private sinceReload: Array<() => void> | undefined
  readonly pageSize: number

  constructor(private readonly options: FeedOptions<T>) {
    this.pageSize = options.pageSize ?? 100
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private changed(): void {
    this.version++
    if (this.scheduled) return
    this.scheduled = true
    const flush = () => {
      this.scheduled = false
      for (const listener of this.listeners) listener()
    }
    if (typeof requestAnimationFrame === 'function' && !document.hidden) requestAnimationFrame(flush)
    else setTimeout(flush, 16)
  }

  /** Starts over with these filters (or the current ones): page 1 now, the rest on demand. */
  reload(query: URLSearchParams = this.query): Promise<void> {
    this.query = query
    this.generation++
    this.controller.abort()
    this.controller = new AbortController()
    this.inFlight.clear()
    this.listed.clear()
    this.sinceReload = []
    return this.load(1, true)
  }

  /** Fetches the pages holding rows [start, end) that are not fetched yet. */
  ensure(start: number, end: number): void {
    for (let i = Math.max(0, start); i < Math.min(end, this.rows.length); i++) {
      if (this.rows[i] !== undefined) continue
      const page = Math.floor(i / this.pageSize) + 1
      if (!this.inFlight.has(page)) void this.load(page, false)
      i = page * this.pageSize - 1
    }
  }

  private load(page: number, first: boolean): Promise<void> {
    const generation = this.generation
    const query = new URLSearchParams(this.query)
    query.set('page', String(page))
    query.set('limit', String(this.pageSize))
    const loading = getPage<T>(this.options.path, query, this.controller.signal)
      .then(
        (answer) => {
          if (generation !== this.generation) return
          if (first) {
            this.rows = new Array<T | undefined>(answer.pagination.total)
            this.listed.clear()
          } else if (this.rows.length < answer.pagination.total) this.rows.length = answer.pagination.total
          const offset = (page - 1) * this.pageSize
          answer.data.forEach((item, i) => {
            this.rows[offset + i] = item
            this.listed.add(this.options.key(item))
          })
          if (first) {
            const replay = this.sinceReload ?? []
            this.sinceReload = undefined
            for (const change of replay) change()
          }
          this.loaded = true
          this.error = null
          this.changed()
          if (first && this.options.eager) {
            for (let p = 2; p <= answer.pagination.pages; p++) void this.load(p, false)
          }
        },
        (error: Error) => {
          if (generation !== this.generation || error.name === 'AbortError') return
          if (first) this.sinceReload = undefined
          this.error = error.message
          this.changed()
        },
      )
      .finally(() => {
        if (this.inFlight.get(page) === loading) this.inFlight.delete(page)
      })
    this.inFlight.set(page, loading)
    return loading
  }

  /** A new item at the top (a live event); ignored when it is already listed. */
  prepend(item: T): void {
    this.sinceReload?.push(() => this.prepend(item))
    const key = this.options.key(item)
    if (this.listed.has(key)) return
    this.listed.add(key)
    this.rows.unshift(item)
    this.changed()
  }

  /** Replaces the listed item with the same key, if it is listed. */
  patch(item: T): void {
    this.sinceReload?.push(() => this.patch(item))
    const key = this.options.key(item)
    if (!this.listed.has(key)) return
    const index = this.rows.findIndex((row) => row !== undefined && this.options.key(row) === key)
    if (index === -1) return
    this.rows[index] = item
    this.changed()
  }

  /** Drops the item with this key (a deleted message). */
  remove(key: string): void {
    this.sinceReload?.push(() => this.remove(key))
    if (!this.listed.delete(key)) return
    const index = this.rows.findIndex((row) => row !== undefined && this.options.key(row) === key)
    if (index === -1) return
    this.rows.splice(index, 1)
    this.changed()
  }
}
