import type { Collection } from '@msw/data'
import { pageJson } from '../contract/pagination.js'
import { normalizeTags, subscriberSchema, type Subscriber, type SubscriberInput } from '../contract/subscriber.js'
import { ApiError } from './errors.js'
import { newId } from './random.js'
import { isoAt } from './clock.js'
import { ChangeLog } from './change-log.js'

/** A subscriber's key in the {@link ChangeLog}: account, NUL, id. */
export const subscriberKey = (account: string, id: string): string => `${account}\u0000${id}`

type DataModule = typeof import('@msw/data')

/**
 * @msw/data, once loaded. Importing it costs ~220 ms (most of what `import('sendbox')` paid), and
 * a test that never touches a subscriber needs none of it: it is imported on the first write.
 */
let dataModule: DataModule | undefined
let dataLoading: Promise<DataModule> | undefined

function loadData(): Promise<DataModule> {
  dataLoading ??= import('@msw/data').then((loaded) => (dataModule = loaded))
  return dataLoading
}

/** One account's subscribers: the @msw/data collection plus the indexes that keep reads O(1). */
interface AccountStore {
  /** Made on the account's first write, once @msw/data is loaded (reads never need it). */
  collection: Collection<typeof subscriberSchema> | undefined
  byId: Map<string, Subscriber>
  /** Ids in creation order: a list page is a slice, O(limit). */
  order: string[]
  /** Lower-cased email → id, for `duplicate_email` (case-insensitive, per account). */
  byEmail: Map<string, string>
  /** id → the subscriber's wire JSON, made on first read and dropped when the subscriber is written. */
  json: Map<string, string>
  /** The pages served last, by page then limit (see {@link pageText}). */
  pages: Map<number, Map<number, KeptPage>>
  /** How many pages `pages` holds (at most {@link MAX_KEPT_PAGES}, then it starts over). */
  keptPages: number
  /** Writes are serialised per account so concurrent updates never interleave. */
  writes: Promise<unknown>
}

/** What a create or update writes, before ids and timestamps. */
export type SubscriberPatch = SubscriberInput

/**
 * Subscribers of every account. Records live in one @msw/data collection per account (validated
 * by the zod schema); beside each collection sit a Map by id, the creation order and an email index,
 * because the collection's own queries are full scans. @msw/data is imported on the first write
 * (writes are async already); reads are served by the indexes and never wait for it.
 */
export class SubscriberStore {
  private readonly accounts = new Map<string, AccountStore>()
  /** Changes since the persistence adapter last wrote, each with the version before (null: created). */
  private changes: ChangeLog<string, Subscriber | null> | undefined

  constructor(private readonly now: () => number) {}

  /** Starts recording changes for a persistence adapter (see {@link ChangeLog}); returns the log. */
  trackChanges(): ChangeLog<string, Subscriber | null> {
    this.changes ??= new ChangeLog()
    return this.changes
  }

  /** The subscriber as kept, or undefined (no 404: for the persistence adapter). */
  find(account: string, id: string): Subscriber | undefined {
    const found = this.accounts.get(account)?.byId.get(id)
    return found && toPlain(found)
  }

  /**
   * Undoes a write the store could not keep: `before` null removes the subscriber (a create), a
   * removed subscriber comes back in its place in creation order (a removal), else that version
   * is put back (an update). Not recorded as a change: the store still holds `before`.
   */
  async revert(account: string, id: string, before: Subscriber | null): Promise<void> {
    const store = this.accounts.get(account)
    const current = store?.byId.get(id)
    if (!store || !current) {
      if (before !== null) await this.restoreRemoved(account, before)
      return
    }
    await this.serialize(store, async () => {
      const collection = await this.collectionOf(store)
      if (current.email) store.byEmail.delete(current.email.toLowerCase())
      store.json.delete(id)
      if (before === null) {
        await collection.delete((q) => q.where({ id }))
        store.byId.delete(id)
        store.order.splice(store.order.indexOf(id), 1)
        return
      }
      const restored = await collection.update((q) => q.where({ id }), {
        data(draft) {
          draft.email = before.email
          draft.phone = before.phone
          draft.first_name = before.first_name
          draft.tags = [...before.tags]
          draft.updated_at = before.updated_at
        },
      })
      if (before.email) store.byEmail.set(before.email.toLowerCase(), id)
      store.byId.set(id, restored ?? before)
    })
  }

  /** Puts back a subscriber a removal took away: its indexes, its place in creation order, its record. */
  private restoreRemoved(account: string, removed: Subscriber): Promise<void> {
    const store = this.store(account)
    if (store.byId.has(removed.id)) return Promise.resolve()
    if (removed.email) store.byEmail.set(removed.email.toLowerCase(), removed.id)
    store.byId.set(removed.id, removed)
    const after = store.order.findIndex((other) => store.byId.get(other)!.created_at > removed.created_at)
    store.order.splice(after < 0 ? store.order.length : after, 0, removed.id)
    return this.serialize(store, async () => {
      const restored = await (await this.collectionOf(store)).create(removed)
      store.byId.set(removed.id, restored)
      store.json.delete(removed.id)
    })
  }

  private store(account: string): AccountStore {
    let store = this.accounts.get(account)
    if (!store) {
      store = {
        collection: dataModule ? new dataModule.Collection({ schema: subscriberSchema }) : undefined,
        byId: new Map(),
        order: [],
        byEmail: new Map(),
        json: new Map(),
        pages: new Map(),
        keptPages: 0,
        writes: Promise.resolve(),
      }
      this.accounts.set(account, store)
    }
    return store
  }

  /** The account's collection, loading @msw/data first if this is the process's first write. */
  private async collectionOf(store: AccountStore): Promise<Collection<typeof subscriberSchema>> {
    if (!store.collection) {
      const { Collection } = await loadData()
      store.collection ??= new Collection({ schema: subscriberSchema })
    }
    return store.collection
  }

  private serialize<T>(store: AccountStore, write: () => Promise<T>): Promise<T> {
    const result = store.writes.then(write, write)
    store.writes = result.catch(() => undefined)
    return result
  }

  private assertEmailFree(store: AccountStore, email: string | null | undefined, exceptId?: string): void {
    if (!email) return
    const owner = store.byEmail.get(email.toLowerCase())
    if (owner !== undefined && owner !== exceptId) {
      throw new ApiError(
        'duplicate_email',
        `A subscriber with email "${email}" already exists in this account. Update it with PUT /subscribers/${owner} instead.`,
        'email',
      )
    }
  }

  /**
   * Creates a subscriber. The email is reserved synchronously, before any await, so parallel
   * creates with one email see exactly one success.
   */
  create(
    account: string,
    input: SubscriberPatch,
    preset?: Partial<Pick<Subscriber, 'id' | 'created_at' | 'updated_at'>>,
  ): Promise<Subscriber> {
    const store = this.store(account)
    if (input.email == null && input.phone == null) {
      throw new ApiError('missing_parameter', 'A subscriber needs at least one of `email` and `phone`.', 'email')
    }
    this.assertEmailFree(store, input.email)
    const at = isoAt(this.now())
    const record: Subscriber = {
      id: preset?.id ?? newId('sub_'),
      email: input.email ?? null,
      phone: input.phone ?? null,
      first_name: input.first_name ?? null,
      tags: normalizeTags(input.tags),
      created_at: preset?.created_at ?? at,
      updated_at: preset?.updated_at ?? preset?.created_at ?? at,
    }
    if (store.byId.has(record.id)) throw new Error(`subscriber id ${record.id} is taken`)
    if (record.email) store.byEmail.set(record.email.toLowerCase(), record.id)
    store.byId.set(record.id, record)
    store.order.push(record.id)
    this.changes?.touch(subscriberKey(account, record.id), null)
    return this.serialize(store, async () => {
      const created = await (await this.collectionOf(store)).create(record)
      store.byId.set(created.id, created)
      store.json.delete(created.id)
      return toPlain(created)
    })
  }

  /** Applies a partial update (`null` clears a field; `tags` replaces the list). */
  update(account: string, id: string, patch: SubscriberPatch): Promise<Subscriber> {
    const store = this.store(account)
    const current = store.byId.get(id)
    if (!current) throw notFound(id)
    return this.serialize(store, async () => {
      const before = store.byId.get(id)
      if (!before) throw notFound(id)
      const next: Subscriber = {
        ...before,
        email: patch.email === undefined ? before.email : patch.email,
        phone: patch.phone === undefined ? before.phone : patch.phone,
        first_name: patch.first_name === undefined ? before.first_name : patch.first_name,
        tags: patch.tags === undefined ? before.tags : normalizeTags(patch.tags),
        updated_at: isoAt(this.now()),
      }
      if (next.email === null && next.phone === null) {
        throw new ApiError(
          'missing_parameter',
          'A subscriber must keep at least one of `email` and `phone`; this update would clear both.',
          patch.email === null ? 'email' : 'phone',
        )
      }
      this.assertEmailFree(store, next.email, id)
      const collection = await this.collectionOf(store)
      const updated = await collection.update((q) => q.where({ id }), {
        data(draft) {
          draft.email = next.email
          draft.phone = next.phone
          draft.first_name = next.first_name
          draft.tags = next.tags
          draft.updated_at = next.updated_at
        },
      })
      const stored = updated ?? next
      this.changes?.touch(subscriberKey(account, id), toPlain(before))
      if (before.email) store.byEmail.delete(before.email.toLowerCase())
      if (stored.email) store.byEmail.set(stored.email.toLowerCase(), id)
      store.byId.set(id, stored)
      store.json.delete(id)
      return toPlain(stored)
    })
  }

  get(account: string, id: string): Subscriber {
    const found = this.accounts.get(account)?.byId.get(id)
    if (!found) throw notFound(id)
    return toPlain(found)
  }

  /** One page in creation order, oldest first: O(limit). */
  list(account: string, page: number, limit: number): { data: Subscriber[]; total: number } {
    const store = this.accounts.get(account)
    if (!store) return { data: [], total: 0 }
    return { data: pageIds(store, page, limit).map((id) => toPlain(store.byId.get(id)!)), total: store.order.length }
  }

  /** {@link SubscriberStore.get} as the wire's JSON text: serialised once per stored version of the subscriber. */
  getJson(account: string, id: string): string {
    const store = this.accounts.get(account)
    if (!store?.byId.has(id)) throw notFound(id)
    return jsonOf(store, id)
  }

  /** {@link SubscriberStore.list} as the wire's JSON text of the page envelope (`toPage`), from each subscriber's cached JSON. */
  listJson(account: string, page: number, limit: number): string {
    const store = this.accounts.get(account)
    if (!store) return pageJson([], page, limit, 0)
    return pageText(store, page, limit)
  }

  count(account: string): number {
    return this.accounts.get(account)?.order.length ?? 0
  }

  /** Every subscriber of an account, in creation order (for fixtures export and tests). */
  all(account: string): Subscriber[] {
    return this.list(account, 1, Number.MAX_SAFE_INTEGER).data
  }

  /**
   * The collection behind an account, for users who want @msw/data's own queries. @msw/data is
   * loaded by the first subscriber write; before any, use {@link SubscriberStore.loadCollection}.
   * Throws when @msw/data is not loaded yet.
   */
  collection(account: string): Collection<typeof subscriberSchema> {
    const store = this.store(account)
    if (!store.collection) {
      if (!dataModule) {
        throw new Error(
          '@msw/data is loaded with the first subscriber write; before any, call `await sandbox.subscribers.loadCollection(account)`.',
        )
      }
      store.collection = new dataModule.Collection({ schema: subscriberSchema })
    }
    return store.collection
  }

  /** The collection behind an account, loading @msw/data first when no subscriber was written yet. */
  async loadCollection(account: string): Promise<Collection<typeof subscriberSchema>> {
    return this.collectionOf(this.store(account))
  }

  /** Removes one account's subscribers (a team token's reset); each removal is recorded as a change. */
  clearAccount(account: string): void {
    const store = this.accounts.get(account)
    if (!store) return
    for (const [id, subscriber] of store.byId) this.changes?.touch(subscriberKey(account, id), toPlain(subscriber))
    store.collection?.clear()
    this.accounts.delete(account)
  }

  clear(): void {
    this.changes?.clear()
    for (const store of this.accounts.values()) store.collection?.clear()
    this.accounts.clear()
  }
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No subscriber with id "${id}" in this account. List them with GET /subscribers.`)
}

/** The ids of one page in creation order: O(limit). */
function pageIds(store: AccountStore, page: number, limit: number): string[] {
  const start = (page - 1) * limit
  return start < store.order.length ? store.order.slice(start, start + limit) : []
}

/** A page's text and what it was made of: each subscriber's JSON (the very strings) and the total. */
interface KeptPage {
  parts: readonly string[]
  total: number
  text: string
}
const MAX_KEPT_PAGES = 16

/**
 * A list page's JSON text: the one made last for this page and limit while it is still exactly
 * the text of the page's subscribers (the same JSON strings, each cached until its subscriber's
 * next write, in the same order) and of the same total; else made again. Checked on every read,
 * so no write has to remember to drop it. The same text object answers every repeat of a page:
 * a page of 20 was ~4.5 KB joined, concatenated and then flattened by the socket write, per
 * request (docs/performance.md, *Promotion under the memory flags*).
 */
function pageText(store: AccountStore, page: number, limit: number): string {
  const start = (page - 1) * limit
  const end = Math.min(start + limit, store.order.length)
  const kept = store.pages.get(page)?.get(limit)
  if (kept !== undefined && kept.total === store.order.length && kept.parts.length === Math.max(0, end - start)) {
    let same = true
    for (let i = start; i < end && same; i++) same = jsonOf(store, store.order[i]) === kept.parts[i - start]
    if (same) return kept.text
  }
  const parts = pageIds(store, page, limit).map((id) => jsonOf(store, id))
  const text = pageJson(parts, page, limit, store.order.length)
  if (store.keptPages >= MAX_KEPT_PAGES) {
    store.pages.clear()
    store.keptPages = 0
  }
  let byLimit = store.pages.get(page)
  if (byLimit === undefined) store.pages.set(page, (byLimit = new Map()))
  if (!byLimit.has(limit)) store.keptPages++
  byLimit.set(limit, { parts, total: store.order.length, text })
  return text
}

/** A stored subscriber's wire JSON, cached until its next write. */
function jsonOf(store: AccountStore, id: string): string {
  let text = store.json.get(id)
  if (text === undefined) {
    text = JSON.stringify(toPlain(store.byId.get(id)!))
    store.json.set(id, text)
  }
  return text
}

/** A plain copy in the wire's field order (records carry @msw/data's internal symbols). */
function toPlain(record: Subscriber): Subscriber {
  return {
    id: record.id,
    email: record.email,
    phone: record.phone,
    first_name: record.first_name,
    tags: [...record.tags],
    created_at: record.created_at,
    updated_at: record.updated_at,
  }
}
