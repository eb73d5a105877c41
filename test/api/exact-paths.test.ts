import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { auth, fakeClock, inProcess, standalone } from '../helpers.js'

/**
 * Issue 14 items 1, 2 and 5: paths match exactly as the reference writes them, in-process and
 * standalone alike, and the number rules say the right thing at their edges.
 */

const errorOf = async (res: Response): Promise<{ status: number; code?: string; message: string; param?: string }> => ({
  status: res.status,
  ...((await res.json()) as { error: { code: string; message: string; param?: string } }).error,
})

/** URLs near the real routes that are unknown paths: case, trailing slash, escapes, doubled slashes. */
const UNKNOWN: Array<[string, string]> = [
  ['POST', '/v1/SMS/send'],
  ['POST', '/V1/sms/send'],
  ['POST', '/v1/sms/send/'],
  ['POST', '/v1/sms/Send'],
  ['POST', '/v1/sm%73/send'],
  ['POST', '/v1//sms/send'],
  ['POST', '/v1/email/send/'],
  ['GET', '/v1/subscribers/'],
  ['GET', '/v1/Subscribers'],
  ['GET', '/v1/subscribers/sub_x/'],
  ['PUT', '/v1/subscribers/'],
  ['GET', '/v1/%zz'],
  ['GET', '/v1/subscribers/%zz'],
]

describe.each(['in-process', 'standalone'] as const)('exact paths (%s)', (mode) => {
  let base: string
  let origin: string
  let close: () => Promise<void> | void
  let sandbox: ReturnType<typeof createSandbox>
  beforeAll(async () => {
    if (mode === 'in-process') {
      const api = inProcess()
      ;({ sandbox } = api)
      base = api.base
      close = () => api.dispose()
    } else {
      const server = await standalone()
      ;({ sandbox } = server)
      base = server.base
      close = server.close
    }
    origin = new URL(base).origin
  })
  afterAll(() => close())

  const send = (method: string, path: string, headers: Record<string, string> = auth()) =>
    fetch(`${origin}${path}`, {
      method,
      headers,
      body: method === 'GET' ? undefined : JSON.stringify({ to: '+14155550123', message: 'x' }),
    })

  it.each(UNKNOWN)('%s %s is an unknown path: 404 not_found with a key', async (method, path) => {
    expect(await errorOf(await send(method, path))).toMatchObject({ status: 404, code: 'not_found' })
  })

  it.each(UNKNOWN)('%s %s is an unknown path: 401 without a key', async (method, path) => {
    expect(await errorOf(await send(method, path, { 'content-type': 'application/json' }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    })
  })

  it('the exact paths still answer', async () => {
    expect((await send('POST', '/v1/sms/send')).status).toBe(200)
    expect((await send('GET', '/v1/subscribers')).status).toBe(200)
  })

  it('a fault armed on /v1/sms/send cannot be bypassed with /v1/SMS/send or /v1/sms/send/', async () => {
    sandbox.faults.add({ status: 503, path: '/v1/sms/send' })
    try {
      expect((await send('POST', '/v1/sms/send')).status).toBe(503)
      expect((await send('POST', '/v1/SMS/send')).status).toBe(404)
      expect((await send('POST', '/v1/sms/send/')).status).toBe(404)
    } finally {
      sandbox.faults.clear()
    }
  })

  it('malformed escapes under any casing never answer 500 (/V1/%zz, /__SANDBOX/%zz, /__sandbox/%zz)', async () => {
    for (const path of [
      '/V1/%zz',
      '/__SANDBOX/%zz',
      '/__sandbox/%zz',
      '/v1/%zz',
      '/__sandbox/messages/%zz',
      '/v1/__sandbox/%zz',
    ]) {
      const res = await fetch(`${origin}${path}`, { headers: auth() }).catch(() => undefined)
      // In-process, a path outside the sandbox's trees is not intercepted at all (no handler); never a 500.
      if (res) expect(res.status, path).toBeLessThan(500)
    }
    expect((await fetch(`${origin}/__sandbox/%zz`)).status).toBe(404)
  })

  it('page up to 1,000,000,000 is a page past the end, echoed exactly; above it is a range error, never clamped (issue 27)', async () => {
    const res = await send('GET', '/v1/subscribers?page=1000000000')
    expect(res.status).toBe(200)
    const body = (await res.json()) as { data: unknown[]; pagination: { page: number } }
    expect(body.data).toEqual([])
    expect(body.pagination.page).toBe(1_000_000_000)
    expect((await fetch(`${origin}/__sandbox/messages?page=0001000000000`)).status).toBe(200)
    for (const page of ['1000000001', '99999999999999999999', '9007199254740993']) {
      const e = await errorOf(await send('GET', `/v1/subscribers?page=${page}`))
      expect(e).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'page' })
      expect(e.message).toMatch(/whole number from 1 to 1000000000/)
      expect((await fetch(`${origin}/__sandbox/messages?page=${page}`)).status).toBe(400)
    }
  })

  it('limit above 100 is the usual range error, whatever its size', async () => {
    for (const limit of ['101', '99999999999999999999', '0']) {
      const e = await errorOf(await send('GET', `/v1/subscribers?limit=${limit}`))
      expect(e).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'limit' })
      expect(e.message).toMatch(/whole number from 1 to 100/)
    }
    for (const page of ['0', '1.0', '1e1', '-1', '']) {
      expect(await errorOf(await send('GET', `/v1/subscribers?page=${page}`)), page).toMatchObject({
        status: 400,
        param: 'page',
      })
    }
  })

  it('Prefer: delay=99999999 says "at most 60000", not "takes a whole number"', async () => {
    const e = await errorOf(await send('GET', '/v1/subscribers', auth('test_pro', { prefer: 'delay=99999999' })))
    expect(e).toMatchObject({ status: 400, code: 'invalid_parameter' })
    expect(e.message).toMatch(/at most 60000/)
    const n = await errorOf(await send('GET', '/v1/subscribers', auth('test_pro', { prefer: 'delay=soon' })))
    expect(n.message).toMatch(/takes a whole number/)
  })
})

describe('a forced 429 carries the Retry-After a real 429 would carry at that instant', () => {
  /** Two requests a minute; the first at 300 ms past a whole second, the second 20 s later (forced), then a real 429. */
  async function forcedThenReal(force: (sandbox: ReturnType<typeof createSandbox>) => Record<string, string>) {
    const clock = fakeClock(Date.UTC(2026, 10, 21, 12, 0, 0) + 300)
    const sandbox = createSandbox({ now: clock.now, apiKeys: { k_one: 'starter' }, limits: { starter: 2 } })
    const call = (headers: Record<string, string>) =>
      getResponse(sandbox.handlers, new Request(`${sandbox.baseUrl}/subscribers`, { headers })) as Promise<Response>
    try {
      expect((await call(auth('k_one'))).status).toBe(200)
      clock.advance(20_000)
      const forced = await call(auth('k_one', force(sandbox)))
      const real = await call(auth('k_one'))
      expect([forced.status, real.status]).toEqual([429, 429])
      return [forced.headers.get('retry-after'), real.headers.get('retry-after')]
    } finally {
      sandbox.dispose()
    }
  }

  it('Prefer: code=429 says 40 where a real 429 says 40 (was 41)', async () => {
    expect(await forcedThenReal(() => ({ prefer: 'code=429' }))).toEqual(['40', '40'])
  })

  it('a fault with status 429 says the same as a real 429', async () => {
    expect(
      await forcedThenReal((sandbox) => {
        sandbox.faults.add({ status: 429, times: 1 })
        return {}
      }),
    ).toEqual(['40', '40'])
  })
})
