import { afterAll, describe, expect, it } from 'vitest'
import { auth, direct, inProcess } from '../helpers.js'

const api = inProcess()
afterAll(() => api.dispose())

const send = { to: 'ana@example.com', subject: 'Hi', html: '<p>Hi</p>' }

describe('authentication', () => {
  it.each([
    ['missing header', {}],
    ['empty header', { authorization: '' }],
    ['other scheme', { authorization: 'Basic dGVzdF9wcm86' }],
    ['bearer without key', { authorization: 'Bearer ' }],
    ['unknown key', { authorization: 'Bearer test_nope' }],
    ['key with wrong case', { authorization: 'Bearer TEST_PRO' }],
  ])('answers 401 unauthorized for %s', async (_name, headers) => {
    const res = await api.call('POST', '/email/send', send, { 'content-type': 'application/json', ...headers })
    expect(res.status).toBe(401)
    const body = await res.json()
    expect(body.error.code).toBe('unauthorized')
    expect(body.error.message).toMatch(/Authorization|API key/)
    expect(res.headers.get('x-ratelimit-limit')).toBeNull()
  })

  it('accepts the scheme in any case', async () => {
    const res = await api.call('POST', '/email/send', send, {
      authorization: 'bEaReR test_pro',
      'content-type': 'application/json',
    })
    expect(res.status).toBe(200)
  })

  it('checks auth before the route: an unknown /v1 path without a key is 401', async () => {
    const res = await api.call('GET', '/nothing/here', undefined, {})
    expect(res.status).toBe(401)
  })

  it('checks auth before validation', async () => {
    const res = await api.call('POST', '/email/send', '{broken', { 'content-type': 'text/plain' })
    expect(res.status).toBe(401)
  })

  it('every default key works with its plan limit in the headers', async () => {
    for (const [key, limit] of [
      ['test_starter', '100'],
      ['test_pro', '1000'],
      ['test_enterprise', '10000'],
    ]) {
      const res = await api.call('GET', '/subscribers', undefined, auth(key))
      expect(res.status).toBe(200)
      expect(res.headers.get('x-ratelimit-limit')).toBe(limit)
    }
  })
})

describe('configured keys', () => {
  it('replace the defaults', async () => {
    const custom = direct({ apiKeys: { key_live_like: 'pro' } })
    try {
      expect((await custom.call('GET', '/subscribers', undefined, auth('key_live_like'))).status).toBe(200)
      expect((await custom.call('GET', '/subscribers', undefined, auth('test_pro'))).status).toBe(401)
    } finally {
      custom.dispose()
    }
  })

  it('rejects bad specs with a clear message', async () => {
    const { createSandbox } = await import('../../src/index.js')
    expect(() => createSandbox({ apiKeys: ['k:gold'] })).toThrow(/unknown plan "gold"/)
    expect(() => createSandbox({ apiKeys: ['nokey'] })).toThrow(/expected KEY:PLAN/)
  })
})
