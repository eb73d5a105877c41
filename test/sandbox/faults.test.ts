import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { auth, direct, inProcess, ORIGIN } from '../helpers.js'

const api = inProcess()
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

const list = (headers: Record<string, string> = {}) =>
  api.call('GET', '/subscribers', undefined, { ...auth(), ...headers })
const sms = () => api.call('POST', '/sms/send', { to: '+14155550123', message: 'hi' })
const faults = (method: string, body?: unknown) =>
  fetch(`${ORIGIN}/__sandbox/faults`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })

describe('faults', () => {
  it('answers the injected status with the default code, on the given path and method, `times` times', async () => {
    const res = await faults('POST', { status: 500, path: '/v1/sms/send', method: 'post', times: 2 })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      id: expect.stringMatching(/^flt_/),
      status: 500,
      path: '/v1/sms/send',
      method: 'POST',
      remaining: 2,
    })
    expect((await list()).status).toBe(200)
    const first = await sms()
    expect(first.status).toBe(500)
    expect((await first.json()).error).toEqual({ code: 'internal_error', message: expect.any(String) })
    expect(first.headers.get('x-ratelimit-limit')).toBe('1000')
    expect((await sms()).status).toBe(500)
    expect((await sms()).status).toBe(200)
    expect(api.sandbox.outbox.list()).toHaveLength(1)
    expect(await (await faults('GET')).json()).toEqual({ data: [] })
  })

  it('uses the given code and maps statuses to their own codes', async () => {
    api.sandbox.faults.add({ status: 503, code: 'service_unavailable', times: 1 })
    expect((await (await list()).json()).error.code).toBe('service_unavailable')
    for (const [status, code] of [
      [400, 'invalid_parameter'],
      [401, 'unauthorized'],
      [404, 'not_found'],
      [429, 'rate_limit_exceeded'],
      [502, 'internal_error'],
    ] as const) {
      api.sandbox.faults.add({ status, times: 1 })
      const res = await list()
      expect(res.status).toBe(status)
      expect((await res.json()).error.code).toBe(code)
      if (status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    }
  })

  it('fires after auth and rate limiting', async () => {
    api.sandbox.faults.add({ status: 500 })
    expect((await api.call('GET', '/subscribers', undefined, {})).status).toBe(401)
  })

  it('draws probabilities from the seeded RNG, so runs repeat', async () => {
    const outcomes = async (seed: number) => {
      const sandbox = direct({ seed })
      sandbox.sandbox.faults.add({ status: 500, probability: 0.5 })
      const statuses: number[] = []
      for (let i = 0; i < 40; i++)
        statuses.push((await sandbox.call('GET', '/subscribers', undefined, auth('test_enterprise'))).status)
      sandbox.dispose()
      return statuses
    }
    const a = await outcomes(3)
    expect(await outcomes(3)).toEqual(a)
    expect(a.filter((s) => s === 500).length).toBeGreaterThan(5)
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(5)
    expect(await outcomes(4)).not.toEqual(a)
  })

  it('delays the answer by delay_ms', async () => {
    api.sandbox.faults.add({ status: 500, delay_ms: 150, times: 1 })
    const started = performance.now()
    expect((await list()).status).toBe(500)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
  })

  it.each([
    [{ code: 'x' }, 'missing_parameter'],
    [{ status: 200 }, 'invalid_parameter'],
    [{ status: 418 }, 'invalid_parameter'],
    [{ status: 500, probability: 2 }, 'invalid_parameter'],
    [{ status: 500, times: 0 }, 'invalid_parameter'],
    [{ status: 500, method: 'BREW' }, 'invalid_parameter'],
    [{ status: 500, path: 'v1/sms' }, 'invalid_parameter'],
    [{ status: '500' }, 'invalid_parameter'],
    [{ status: 500, colour: 'red' }, 'unknown_parameter'],
  ])('rejects the spec %j with 400 %s', async (spec, code) => {
    const res = await faults('POST', spec)
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe(code)
  })

  it('rejects a fault body that is not JSON', async () => {
    expect((await (await faults('POST', '{')).json()).error.code).toBe('invalid_json')
  })

  it('clears with DELETE', async () => {
    api.sandbox.faults.add({ status: 500 })
    await faults('DELETE')
    expect((await list()).status).toBe(200)
  })
})

describe('Prefer header', () => {
  it('forces a status with the proper error object', async () => {
    const res = await list({ prefer: 'code=500' })
    expect(res.status).toBe(500)
    expect((await res.json()).error.code).toBe('internal_error')
    const limited = await list({ prefer: 'code=429' })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it('ignores a 2xx code and combines with delay', async () => {
    const started = performance.now()
    const res = await list({ prefer: 'code=200, delay=120' })
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(110)
  })

  it('rejects nonsense values', async () => {
    for (const prefer of ['code=abc', 'code=418', 'delay=-5', 'delay=999999']) {
      const res = await list({ prefer })
      expect(res.status).toBe(400)
      expect((await res.json()).error.message).toMatch(/Prefer/)
    }
  })
})
