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
    expect(sandbox.subscribers.collection(account).findFirst((q) => q.where({ id: created.id }))?.first_name).toBe('Ana')
    // Another account's collection exists on demand too (the module is loaded by now).
    expect(sandbox.subscribers.collection('someone-else').findMany()).toEqual([])
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
