import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createSubscriber, getSubscriber, listSubscribers, updateSubscriber } from '../app.js'
import { subscriberHandlers, type Subscriber } from './mocks.js'

const subscribers = new Map<string, Subscriber>()
const server = setupServer(...subscriberHandlers(subscribers))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => subscribers.clear())
afterAll(() => server.close())

it('creates a subscriber and reads it back', async () => {
  const created = await createSubscriber({ email: 'ana@example.com', first_name: 'Ana', tags: ['beta'] })
  expect(created.status).toBe(200)
  const read = await getSubscriber(created.json.id)
  expect(read.json).toMatchObject({ email: 'ana@example.com', first_name: 'Ana', tags: ['beta'], phone: null })
})

it('creates a subscriber by phone only', async () => {
  const created = await createSubscriber({ phone: '+14155550100' })
  expect(created.json).toMatchObject({ phone: '+14155550100', email: null, tags: [] })
})

it('refuses a second subscriber with the same email', async () => {
  await createSubscriber({ email: 'bo@example.com' })
  const again = await createSubscriber({ email: 'BO@example.com' })
  expect(again.status).toBe(400)
  expect(again.json.error.code).toBe('duplicate_email')
})

it('refuses a subscriber with neither email nor phone', async () => {
  const created = await createSubscriber({ first_name: 'Nobody' })
  expect(created.status).toBe(400)
  expect(created.json.error.code).toBe('missing_parameter')
})

it('answers 404 for an unknown id', async () => {
  const read = await getSubscriber('sub_unknown')
  expect(read.status).toBe(404)
  expect(read.json.error.code).toBe('not_found')
})

it('updates tags, replacing the list', async () => {
  const created = await createSubscriber({ email: 'cy@example.com', tags: ['a', 'b'] })
  const updated = await updateSubscriber(created.json.id, { tags: ['vip', 'vip', 'beta'] })
  expect(updated.json.tags).toEqual(['vip', 'beta'])
})

it('updates the first name and keeps the rest', async () => {
  const created = await createSubscriber({ email: 'di@example.com', phone: '+14155550101' })
  const updated = await updateSubscriber(created.json.id, { first_name: 'Di' })
  expect(updated.json).toMatchObject({ first_name: 'Di', email: 'di@example.com', phone: '+14155550101' })
})

it('lists subscribers in creation order', async () => {
  for (const name of ['e1', 'e2', 'e3']) await createSubscriber({ email: `${name}@example.com` })
  const list = await listSubscribers()
  expect(list.json.data.map((s: { email: string }) => s.email)).toEqual([
    'e1@example.com',
    'e2@example.com',
    'e3@example.com',
  ])
})

it('pages the list', async () => {
  for (let i = 0; i < 25; i++) await createSubscriber({ email: `p${i}@example.com` })
  const second = await listSubscribers(2, 10)
  expect(second.json.pagination).toEqual({ page: 2, limit: 10, total: 25, pages: 3 })
  expect(second.json.data[0].email).toBe('p10@example.com')
})

it('starts each test with no subscribers', async () => {
  const list = await listSubscribers()
  expect(list.json.pagination.total).toBe(0)
})
