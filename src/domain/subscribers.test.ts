import { describe, expect, it } from 'vitest'
import { createSandbox } from '../index.js'

describe('the subscriber store behind @msw/data, loaded on the first write', () => {
  it('serves writes, reads and the collection of every account once a subscriber exists', async () => {
    const sandbox = createSandbox()
    const account = sandbox.accountOf(sandbox.keys[0].key)
    const created = await sandbox.subscribers.create(account, { email: 'ana@example.com', tags: ['vip'] })
    expect(sandbox.subscribers.get(account, created.id)).toEqual(created)
    const updated = await sandbox.subscribers.update(account, created.id, { first_name: 'Ana' })
    expect(updated.first_name).toBe('Ana')
    expect(sandbox.subscribers.collection(account).findFirst((q) => q.where({ id: created.id }))?.first_name).toBe(
      'Ana',
    )
    // Another account's collection exists on demand too (the module is loaded by now).
    expect(sandbox.subscribers.collection('someone-else').findMany()).toEqual([])
    sandbox.dispose()
  })

  it('undoes a removal the store could not keep: back in memory, in creation order, email taken, not a new change (issue 34)', async () => {
    const sandbox = createSandbox()
    const account = sandbox.accountOf(sandbox.keys[0].key)
    const first = await sandbox.subscribers.create(account, { email: 'ana@example.com', tags: ['vip'] })
    const second = await sandbox.subscribers.create(account, { phone: '+14155550123' })
    const changes = sandbox.subscribers.trackChanges()
    // A team token's reset removes its accounts' subscribers; the store's write of it fails, and
    // the store's rollback reverts each removal with the version it recorded (sqlite-store.ts).
    sandbox.subscribers.clearAccount(account)
    expect(sandbox.subscribers.count(account)).toBe(0)
    const { touched } = changes.drain()
    expect(touched.size).toBe(2)
    for (const [key, before] of touched) {
      const [owner, id] = key.split('\u0000') as [string, string]
      await sandbox.subscribers.revert(owner, id, before ?? null)
    }
    expect(sandbox.subscribers.all(account)).toEqual([first, second])
    expect(sandbox.subscribers.find(account, first.id)).toEqual(first)
    expect(
      sandbox.subscribers
        .collection(account)
        .findMany()
        .map((s) => s.id)
        .sort(),
    ).toEqual([first.id, second.id].sort())
    expect(() => sandbox.subscribers.create(account, { email: 'ANA@example.com' })).toThrow(/already exists/)
    expect(changes.drain().touched.size, 'a revert is not a change to write').toBe(0)
    sandbox.dispose()
  })

  it('hands out a collection before any write through loadCollection', async () => {
    const sandbox = createSandbox()
    const collection = await sandbox.subscribers.loadCollection('empty-account')
    expect(collection.findMany()).toEqual([])
    expect(sandbox.subscribers.collection('empty-account')).toBe(collection)
    sandbox.dispose()
  })

  it('keeps seeded subscribers in creation order across a reset', async () => {
    const sandbox = createSandbox({ subscribers: 3 })
    await sandbox.ready
    const account = sandbox.accountOf(sandbox.keys[0].key)
    const before = sandbox.subscribers.all(account)
    expect(before).toHaveLength(3)
    await sandbox.subscribers.create(account, { phone: '+14155550100' })
    await sandbox.reset('subscribers')
    expect(sandbox.subscribers.all(account)).toEqual(before)
    expect(sandbox.subscribers.collection(account).findMany()).toHaveLength(3)
    sandbox.dispose()
  })
})

describe('the wire JSON the subscriber routes answer with (cached per stored version)', () => {
  it('is exactly JSON.stringify of the objects, through creates, updates and reads in between', async () => {
    const sandbox = createSandbox({ subscribers: 5 })
    await sandbox.ready
    const account = sandbox.accountOf(sandbox.keys[0].key)
    const same = () => {
      for (const [page, limit] of [
        [1, 20],
        [1, 2],
        [2, 2],
        [3, 2],
        [4, 2],
        [9, 100],
      ]) {
        const { data, total } = sandbox.subscribers.list(account, page, limit)
        expect(sandbox.subscribers.listJson(account, page, limit)).toBe(
          JSON.stringify({ data, pagination: { page, limit, total, pages: Math.ceil(total / limit) } }),
        )
      }
      for (const subscriber of sandbox.subscribers.all(account)) {
        expect(sandbox.subscribers.getJson(account, subscriber.id)).toBe(
          JSON.stringify(sandbox.subscribers.get(account, subscriber.id)),
        )
      }
    }
    same()
    // A read while the create is still being written, then after it.
    const pending = sandbox.subscribers.create(account, { email: 'ana@example.com', tags: ['a', 'b'] })
    same()
    const created = await pending
    same()
    // Every field an update changes shows in the next read (a cached text is never served stale).
    await sandbox.subscribers.update(account, created.id, {
      email: 'ANA@example.org',
      first_name: 'Ana "A" \u2028',
      tags: [],
      phone: '+14155550100',
    })
    expect(JSON.parse(sandbox.subscribers.getJson(account, created.id))).toMatchObject({
      email: 'ANA@example.org',
      first_name: 'Ana "A" \u2028',
      tags: [],
      phone: '+14155550100',
    })
    same()
    await sandbox.subscribers.update(account, created.id, { email: null })
    same()
    await sandbox.reset('subscribers')
    same()
    sandbox.dispose()
  })

  it('answers 404 for an unknown id and an empty page for an account without subscribers', () => {
    const sandbox = createSandbox({ subscribers: 0 })
    expect(() => sandbox.subscribers.getJson('nobody', 'sub_x')).toThrow(/No subscriber with id "sub_x"/)
    expect(JSON.parse(sandbox.subscribers.listJson('nobody', 2, 10))).toEqual({
      data: [],
      pagination: { page: 2, limit: 10, total: 0, pages: 0 },
    })
    sandbox.dispose()
  })
})
