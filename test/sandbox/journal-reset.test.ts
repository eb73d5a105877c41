import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { auth, direct, inProcess, ORIGIN } from '../helpers.js'

const api = inProcess({ subscribers: 2, seed: 5 })
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

const control = (method: string, path: string) => fetch(`${ORIGIN}/__sandbox${path}`, { method })

describe('request journal', () => {
  it('records every /v1 request with status, duration, error code, account and masked key', async () => {
    await api.call('POST', '/email/send', { to: 'ana@example.com', subject: 'x', html: 'x' })
    await api.call('POST', '/sms/send', { to: 'bad', message: 'x' }, auth('test_starter'))
    await api.call('GET', '/subscribers', undefined, auth('test_enterprise_wrong'))
    await control('GET', '/health')
    const page = await (await control('GET', '/requests')).json()
    expect(page.pagination.total).toBe(3)
    const [unauth, bad, ok] = page.data
    expect(ok).toMatchObject({
      kind: 'api',
      method: 'POST',
      path: '/v1/email/send',
      status: 200,
      error_code: null,
      account: api.sandbox.accountOf('test_pro'),
      key: 't…o',
    })
    expect(ok.duration_ms).toBeGreaterThanOrEqual(0)
    expect(bad).toMatchObject({
      status: 400,
      error_code: 'invalid_phone',
      account: api.sandbox.accountOf('test_starter'),
      key: 'te…er',
    })
    expect(unauth).toMatchObject({ status: 401, error_code: 'unauthorized', account: null })
    expect(JSON.stringify(page)).not.toContain('test_enterprise_wrong')
    // The keys used never show; the 401's message (kept in error_message and response_body) names
    // the public default keys as a hint, which is not a key of this request.
    const withoutHints = page.data.map(
      ({ error_message: _m, response_body: _r, ...entry }: Record<string, unknown>) => entry,
    )
    expect(JSON.stringify(withoutHints)).not.toMatch(/test_starter|test_pro\b/)
    expect(bad).toMatchObject({
      request_body: '{"to":"bad","message":"x"}',
      error_message: expect.stringContaining('`to` is not a valid phone number'),
      response_body: expect.stringContaining('"invalid_phone"'),
    })
    expect(ok).toMatchObject({
      request_body: expect.stringContaining('ana@example.com'),
      error_message: null,
      response_body: null,
      query: null,
    })
  })

  it('is capped, oldest evicted first', async () => {
    const small = direct({ maxRequests: 3 })
    for (let i = 0; i < 5; i++) await small.call('GET', `/subscribers?page=${i + 1}`)
    expect(small.sandbox.journal.list().map((e) => e.path)).toHaveLength(3)
    expect(small.sandbox.journal.list()[2].status).toBe(200)
    small.dispose()
  })
})

describe('reset', () => {
  it('returns everything to the seeded state', async () => {
    const seeded = await (await api.call('GET', '/subscribers')).text()
    await api.call('POST', '/subscribers', { email: 'new@example.com' })
    await api.call('POST', '/email/send', { to: 'ana@example.com', subject: 'x', html: 'x' })
    api.sandbox.faults.add({ status: 500, path: '/v1/nothing' })
    const res = await control('POST', '/reset')
    expect(await res.json()).toEqual({ ok: true, scope: 'all' })
    expect(await (await api.call('GET', '/subscribers')).text()).toBe(seeded)
    expect(api.sandbox.outbox.list()).toHaveLength(0)
    expect(api.sandbox.faults.list()).toHaveLength(0)
    expect(api.sandbox.journal.list()).toHaveLength(1) // the GET above, after the reset
  })

  it('resets one part with ?scope=', async () => {
    await api.call('POST', '/subscribers', { email: 'new@example.com' })
    await api.call('POST', '/email/send', { to: 'ana@example.com', subject: 'x', html: 'x' })
    expect(await (await control('POST', '/reset?scope=messages')).json()).toEqual({ ok: true, scope: 'messages' })
    expect(api.sandbox.outbox.list()).toHaveLength(0)
    expect(api.sandbox.subscribers.count(api.sandbox.accountOf('test_pro'))).toBe(3)
    await control('POST', '/reset?scope=subscribers')
    expect(api.sandbox.subscribers.count(api.sandbox.accountOf('test_pro'))).toBe(2)
    await control('POST', '/reset?scope=journal')
    expect(api.sandbox.journal.list()).toHaveLength(0)
    const bad = await control('POST', '/reset?scope=everything')
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.code).toBe('invalid_parameter')
  })

  it('answers unknown controls with 404 in the error shape', async () => {
    const res = await control('GET', '/nothing')
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('not_found')
  })
})

describe('admin token', () => {
  it('protects /__sandbox when configured', async () => {
    const locked = direct({ adminToken: 'sesame' })
    const health = (headers: Record<string, string>) =>
      import('msw').then(({ getResponse }) =>
        getResponse(locked.sandbox.handlers, new Request('https://api.sendbox.test/__sandbox/health', { headers })),
      )
    expect((await health({}))!.status).toBe(401)
    expect((await health({ authorization: 'Bearer wrong' }))!.status).toBe(401)
    expect((await health({ authorization: 'Bearer sesame' }))!.status).toBe(200)
    expect((await health({ 'x-sendbox-admin-token': 'sesame' }))!.status).toBe(200)
    locked.dispose()
  })
})
