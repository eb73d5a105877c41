/**
 * The page's state, outside any component: the live message list and journal, the list's
 * filters, the per-channel counts and the connection. One event stream feeds them all.
 */
import { useEffect, useState } from 'preact/hooks'
import { call, getPage } from './api.js'
import { PagedFeed } from './feed.js'
import { follow, type Subscribable } from './follow.js'
import { matchesFilters } from './format.js'
import { openEventStream } from './sse.js'
import { CHANNELS, type Channel, type JournalEntry, type MessageSummary, type StreamEvent } from './types.js'

/** A value with listeners: what the components read through {@link useStore}. */
export class Store<T> {
  private readonly listeners = new Set<() => void>()
  constructor(private value: T) {}
  get(): T {
    return this.value
  }
  set(value: T): void {
    if (Object.is(value, this.value)) return
    this.value = value
    for (const listener of this.listeners) listener()
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

/** Re-renders the component when `source` changes; gives `snapshot()` as read at this render. */
function useFollowed<S>(source: Subscribable, snapshot: () => S): S {
  const [, bump] = useState(0)
  const value = snapshot()
  useEffect(() => follow(source, snapshot, value, () => bump((n) => n + 1)), [source])
  return value
}

/** Re-renders the component when the store changes. */
export function useStore<T>(store: { get(): T } & Subscribable): T {
  return useFollowed(store, () => store.get())
}

/** Re-renders the component when the feed changes; gives its version. */
export function useFeed<T>(feed: PagedFeed<T>): number {
  return useFollowed(feed, () => feed.version)
}

export const messages = new PagedFeed<MessageSummary>({ path: '/__sandbox/messages', key: (m) => m.message_id })
export const requests = new PagedFeed<JournalEntry>({
  path: '/__sandbox/requests',
  key: (e) => String(e.id),
  eager: true,
})

/** The list's filters, as the query of `GET /__sandbox/messages`. */
export const filters = new Store(new URLSearchParams())
/** Messages per channel under the account filter (the chips above the list). */
export const counts = new Store(
  Object.fromEntries(CHANNELS.map((channel) => [channel, null])) as Record<Channel, number | null>,
)
export type Connection = { state: 'connecting' | 'live' | 'down' | 'locked'; detail: string }
export const connection = new Store<Connection>({ state: 'connecting', detail: 'Connecting to sendbox…' })

type EventListener = (event: StreamEvent) => void
const eventListeners = new Set<EventListener>()

/** Runs `listener` for every sandbox event (a detail view follows its message's status). */
export function onSandboxEvent(listener: EventListener): () => void {
  eventListeners.add(listener)
  return () => eventListeners.delete(listener)
}

function countQuery(channel: Channel): URLSearchParams {
  const query = new URLSearchParams({ channel, limit: '1' })
  const account = filters.get().get('account')
  if (account) query.set('account', account)
  return query
}

async function reloadCounts(): Promise<void> {
  const next = { ...counts.get() }
  await Promise.all(
    CHANNELS.map(async (channel) => {
      try {
        next[channel] = (await getPage<MessageSummary>('/__sandbox/messages', countQuery(channel))).pagination.total
      } catch {
        next[channel] = null
      }
    }),
  )
  counts.set(next)
}

let countsTimer: ReturnType<typeof setTimeout> | undefined

/** Re-counts soon, once for a burst of deletions. */
function scheduleCounts(): void {
  countsTimer ??= setTimeout(() => {
    countsTimer = undefined
    void reloadCounts()
  }, 250)
}

/** Whether something showed the journal yet: the inbox's first load fetches the messages' first page only. */
let journalWanted = false

/** Loads the journal the first time a view needs it (the Requests page, a message's request link). */
export function wantJournal(): void {
  if (journalWanted) return
  journalWanted = true
  void requests.reload()
}

/** Re-fetches the list (with the current filters), the counts and, once it was shown, the journal. */
export function reloadAll(): void {
  void messages.reload(filters.get())
  void reloadCounts()
  if (journalWanted) void requests.reload()
}

/** Applies new filters to the list. */
export function setFilters(next: URLSearchParams): void {
  filters.set(next)
  void messages.reload(next)
  void reloadCounts()
}

function handle(event: StreamEvent): void {
  switch (event.type) {
    case 'message.captured': {
      const summary = event.message
      if (matchesFilters(summary, filters.get())) messages.prepend(summary)
      const account = filters.get().get('account')
      if (!account || account === summary.account) {
        const current = counts.get()
        counts.set({ ...current, [summary.channel]: (current[summary.channel] ?? 0) + 1 })
      }
      break
    }
    case 'message.status': {
      const summary = event.message
      if (matchesFilters(summary, filters.get())) messages.patch(summary)
      else messages.remove(summary.message_id)
      break
    }
    case 'message.deleted':
      messages.remove(event.message_id)
      scheduleCounts()
      break
    case 'request':
      requests.prepend(event.entry)
      break
    case 'reset':
      reloadAll()
      break
  }
  for (const listener of eventListeners) listener(event)
}

let started = false

/** Opens the event stream once; every (re)connection re-fetches what may have been missed. */
export function startLive(): void {
  if (started) return
  started = true
  // Once the stream is open (the server has subscribed it, so nothing falls between the page and
  // the events): one fetch of page 1, not one at start and another at open. Where the stream
  // cannot open, the list still shows after a moment.
  const fallback = setTimeout(reloadAll, 1_500)
  openEventStream('/__sandbox/events', {
    onOpen() {
      clearTimeout(fallback)
      connection.set({ state: 'live', detail: 'Live: new messages appear as they are captured.' })
      reloadAll()
    },
    onDown(reason, needsToken) {
      connection.set({ state: needsToken ? 'locked' : 'down', detail: reason })
    },
    onEvent(type, data) {
      try {
        const payload = JSON.parse(data) as Record<string, unknown>
        // The data is the event object; a bare message or journal entry is wrapped the same way.
        if ((type === 'message.captured' || type === 'message.status') && payload.message === undefined)
          handle({ type, message: payload } as unknown as StreamEvent)
        else if (type === 'request' && payload.entry === undefined)
          handle({ type, entry: payload } as unknown as StreamEvent)
        else handle({ ...payload, type } as StreamEvent)
      } catch {
        // a malformed event: skip it, the next reload corrects the list
      }
    },
  })
}

/** Deletes one message (the detail view's Delete). */
export async function deleteMessage(id: string): Promise<void> {
  await call('DELETE', `/__sandbox/messages/${encodeURIComponent(id)}`)
  messages.remove(id)
  scheduleCounts()
}
