import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { auth, direct, fakeClock, inProcess } from '../helpers.js'

const clock = fakeClock()
const api = inProcess({ now: clock.now })
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

async function create(body: unknown, key = 'test_pro') {
  const res = await api.call('POST', '/subscribers', body, auth(key))
  return { status: res.status, body: await res.json() }
}

describe('POST /subscribers', () => {
  it('creates a subscriber with every field of the contract', async () => {
    const { status, body } = await create({
      email: 'ana@example.com',
      phone: '+14155550123',
      first_name: 'Ana',
      tags: ['vip', 'news', 'vip'],
    })
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['id', 'email', 'phone', 'first_name', 'tags', 'created_at', 'updated_at'])
    expect(body).toMatchObject({
      email: 'ana@example.com',
      phone: '+14155550123',
      first_name: 'Ana',
      tags: ['vip', 'news'],
    })
    expect(body.id).toMatch(/^sub_[A-Za-z0-9]{24}$/)
    expect(body.created_at).toBe(new Date(clock.now()).toISOString())
    expect(body.updated_at).toBe(body.created_at)
  })

  it('fills absent optional fields with null and tags with []', async () => {
    const { body } = await create({ phone: '+14155550123' })
    expect(body).toMatchObject({ email: null, first_name: null, tags: [] })
  })

  it('needs an email or a phone', async () => {
    expect((await create({ first_name: 'Ana' })).body.error.code).toBe('missing_parameter')
    expect((await create({ email: null, phone: null })).body.error.code).toBe('missing_parameter')
  })

  it('rejects duplicate emails case-insensitively, within the account only', async () => {
    expect((await create({ email: 'Ana@Example.com' })).status).toBe(200)
    const dup = await create({ email: 'ana@example.COM' })
    expect(dup.status).toBe(400)
    expect(dup.body.error.code).toBe('duplicate_email')
    expect((await create({ email: 'ana@example.com' }, 'test_starter')).status).toBe(200)
  })

  it('validates each field with its own code', async () => {
    expect((await create({ email: 'nope' })).body.error).toMatchObject({ code: 'invalid_email', param: 'email' })
    expect((await create({ phone: '555' })).body.error).toMatchObject({ code: 'invalid_phone', param: 'phone' })
    expect((await create({ email: 'a@b.co', first_name: '' })).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'first_name',
    })
    expect((await create({ email: 'a@b.co', tags: 'vip' })).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'tags',
    })
    expect((await create({ email: 'a@b.co', tags: [''] })).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'tags[0]',
    })
    expect((await create({ email: 'a@b.co', tags: ['x'.repeat(65)] })).body.error.code).toBe('invalid_parameter')
    expect((await create({ email: 'a@b.co', firstName: 'Ana' })).body.error).toMatchObject({
      code: 'unknown_parameter',
      param: 'firstName',
    })
  })

  it('counts the 100-tag limit before de-duplication', async () => {
    expect((await create({ email: 'a@b.co', tags: Array(101).fill('same') })).body.error.code).toBe('invalid_parameter')
    const ok = await create({ email: 'a@b.co', tags: Array.from({ length: 100 }, (_, i) => `t${i % 10}`) })
    expect(ok.status).toBe(200)
    expect(ok.body.tags).toHaveLength(10)
  })

  it('treats __proto__, constructor and prototype as unknown fields', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const res = await api.call('POST', '/subscribers', `{"email":"a@b.co","${key}":{"admin":true}}`)
      expect((await res.json()).error).toMatchObject({ code: 'unknown_parameter', param: key })
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })
})

describe('GET and PUT /subscribers/{id}', () => {
  it('fetches, updates partially, clears with null and bumps updated_at', async () => {
    const { body: created } = await create({
      email: 'ana@example.com',
      phone: '+14155550123',
      first_name: 'Ana',
      tags: ['a'],
    })
    expect(await (await api.call('GET', `/subscribers/${created.id}`)).json()).toEqual(created)
    clock.advance(5_000)
    const res = await api.call('PUT', `/subscribers/${created.id}`, {
      first_name: 'Ana María',
      tags: ['b', 'b', 'c'],
      phone: null,
    })
    expect(res.status).toBe(200)
    const updated = await res.json()
    expect(updated).toMatchObject({
      id: created.id,
      email: 'ana@example.com',
      phone: null,
      first_name: 'Ana María',
      tags: ['b', 'c'],
      created_at: created.created_at,
    })
    expect(updated.updated_at).toBe(new Date(clock.now()).toISOString())
    expect(await (await api.call('GET', `/subscribers/${created.id}`)).json()).toEqual(updated)
  })

  it('refuses an update that leaves neither email nor phone', async () => {
    const { body } = await create({ email: 'ana@example.com' })
    const res = await api.call('PUT', `/subscribers/${body.id}`, { email: null })
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('missing_parameter')
  })

  it('refuses an empty update', async () => {
    const { body } = await create({ email: 'ana@example.com' })
    const res = await api.call('PUT', `/subscribers/${body.id}`, {})
    expect((await res.json()).error.code).toBe('missing_parameter')
  })

  it('refuses to take another subscriber’s email', async () => {
    await create({ email: 'ana@example.com' })
    const { body: bo } = await create({ email: 'bo@example.com' })
    const res = await api.call('PUT', `/subscribers/${bo.id}`, { email: 'ANA@example.com' })
    expect((await res.json()).error.code).toBe('duplicate_email')
    // Keeping one's own email (in another case) is fine.
    expect((await api.call('PUT', `/subscribers/${bo.id}`, { email: 'BO@example.com' })).status).toBe(200)
  })

  it('answers 404 not_found for unknown ids', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { first_name: 'X' }],
    ] as const) {
      const res = await api.call(method, '/subscribers/sub_doesnotexist', body)
      expect(res.status).toBe(404)
      expect((await res.json()).error.code).toBe('not_found')
    }
  })
})

describe('GET /subscribers', () => {
  it('pages in creation order with the reference envelope', async () => {
    const ids: string[] = []
    for (let i = 0; i < 45; i++) {
      clock.advance(1)
      ids.push((await create({ email: `s${i}@example.com` })).body.id)
    }
    const first = await (await api.call('GET', '/subscribers')).json()
    expect(first.pagination).toEqual({ page: 1, limit: 20, total: 45, pages: 3 })
    expect(first.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 20))
    const last = await (await api.call('GET', '/subscribers?page=3&limit=20')).json()
    expect(last.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(40))
    const past = await (await api.call('GET', '/subscribers?page=9&limit=20')).json()
    expect(past).toEqual({ data: [], pagination: { page: 9, limit: 20, total: 45, pages: 3 } })
    const big = await (await api.call('GET', '/subscribers?limit=100&page=001')).json()
    expect(big.pagination).toEqual({ page: 1, limit: 100, total: 45, pages: 1 })
  })

  it('answers pages 0 when empty', async () => {
    expect((await (await api.call('GET', '/subscribers')).json()).pagination).toEqual({
      page: 1,
      limit: 20,
      total: 0,
      pages: 0,
    })
  })

  it.each([
    'page=0',
    'limit=0',
    'limit=101',
    'page=-1',
    'page=1.5',
    'limit=1e1',
    'page=',
    'limit=+5',
    'page=abc',
    'limit= 5',
  ])('rejects %s as invalid_parameter, never clamps', async (query) => {
    const res = await api.call('GET', `/subscribers?${query}`)
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('invalid_parameter')
  })

  it('ignores unknown query parameters', async () => {
    expect((await api.call('GET', '/subscribers?sort=desc&page=1')).status).toBe(200)
  })

  it('answers a repeated query string from the subscribers of now, and still refuses a bad one after good ones', async () => {
    // The route remembers the query strings it parsed (issue 37): the page, never the answer.
    const page = async (query: string) => (await api.call('GET', `/subscribers?${query}`)).json()
    await create({ email: 'first@example.com' })
    expect((await page('page=1&limit=2')).pagination).toEqual({ page: 1, limit: 2, total: 1, pages: 1 })
    clock.advance(1)
    await create({ email: 'second@example.com' })
    clock.advance(1)
    await create({ email: 'third@example.com' })
    const again = await page('page=1&limit=2')
    expect(again.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 })
    expect(again.data.map((s: { email: string }) => s.email)).toEqual(['first@example.com', 'second@example.com'])
    expect((await page('page=2&limit=2')).data.map((s: { email: string }) => s.email)).toEqual(['third@example.com'])
    for (let i = 0; i < 300; i++)
      expect((await api.call('GET', `/subscribers?limit=${(i % 100) + 1}&page=${i}`)).status).toBe(i === 0 ? 400 : 200)
    const bad = await api.call('GET', '/subscribers?page=1&limit=0')
    expect(bad.status).toBe(400)
    expect((await bad.json()).error).toMatchObject({ code: 'invalid_parameter', param: 'limit' })
    expect((await page('page=1&limit=2')).pagination.total).toBe(3)
  })
  it('answers a repeated page with the subscribers of now: an update on it, a new subscriber, a reset', async () => {
    // The route keeps the text of the pages it served last (issue 37) and answers it again only
    // while it is still the text of the page's subscribers and total.
    const page = async () => (await api.call('GET', '/subscribers?page=1&limit=2')).json()
    const ids: string[] = []
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      ids.push((await create({ email, first_name: 'Old' })).body.id)
      clock.advance(1)
    }
    const first = await page()
    expect(await page()).toEqual(first)
    expect((await api.call('PUT', `/subscribers/${ids[1]}`, { first_name: 'New' })).status).toBe(200)
    expect((await page()).data.map((s: { first_name: string }) => s.first_name)).toEqual(['Old', 'New'])
    expect((await api.call('PUT', `/subscribers/${ids[2]}`, { first_name: 'Off the page' })).status).toBe(200)
    expect((await page()).data.map((s: { first_name: string }) => s.first_name)).toEqual(['Old', 'New'])
    await create({ email: 'd@example.com' })
    expect((await page()).pagination).toEqual({ page: 1, limit: 2, total: 4, pages: 2 })
    await api.sandbox.reset()
    expect(await page()).toMatchObject({ data: [], pagination: { total: 0 } })
  })
})

describe('accounts', () => {
  it('keep subscribers apart: another account’s ids answer 404 and never count', async () => {
    const { body } = await create({ email: 'ana@example.com' }, 'test_pro')
    expect((await api.call('GET', `/subscribers/${body.id}`, undefined, auth('test_starter'))).status).toBe(404)
    expect((await api.call('PUT', `/subscribers/${body.id}`, { first_name: 'X' }, auth('test_starter'))).status).toBe(
      404,
    )
    const list = await (await api.call('GET', '/subscribers', undefined, auth('test_starter'))).json()
    expect(list.pagination.total).toBe(0)
  })

  it('are shared by keys configured with one account', async () => {
    const shared = direct({ apiKeys: ['k1:starter:acme', 'k2:pro:acme', 'k3:pro'] })
    try {
      const res = await shared.call('POST', '/subscribers', { email: 'ana@example.com' }, auth('k1'))
      const { id } = await res.json()
      expect((await shared.call('GET', `/subscribers/${id}`, undefined, auth('k2'))).status).toBe(200)
      expect((await shared.call('GET', `/subscribers/${id}`, undefined, auth('k3'))).status).toBe(404)
    } finally {
      shared.dispose()
    }
  })
})

describe('concurrency', () => {
  it('200 parallel creates give 200 unique ids and an exact total', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => create({ email: `p${i}@example.com` }, 'test_enterprise')),
    )
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(new Set(results.map((r) => r.body.id)).size).toBe(200)
    const list = await (await api.call('GET', '/subscribers?limit=1', undefined, auth('test_enterprise'))).json()
    expect(list.pagination.total).toBe(200)
  })
})
