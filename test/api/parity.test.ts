import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auth, direct, standalone } from '../helpers.js'

/**
 * The same requests through the standalone server and in-process (msw getResponse over the same
 * kind of sandbox) must give identical answers: status, JSON body (ids and times normalised) and
 * the API's own headers.
 */
const requests: Array<[string, string, unknown?, Record<string, string>?]> = [
  ['POST', '/email/send', { to: 'ana@example.com', subject: 'Hi', html: '<p>Hi</p>' }],
  ['POST', '/email/send', { to: 'ana@', subject: 'Hi', html: '<p>Hi</p>' }],
  ['POST', '/email/send', { to: ['a@b.co'], subject: 'Hi', html: 'x' }],
  ['POST', '/email/send', '{not json'],
  ['POST', '/email/send', '[1,2]'],
  [
    'POST',
    '/email/send',
    { to: 'a@b.co', subject: 'Hi', html: 'x' },
    { authorization: 'Bearer test_pro', 'content-type': 'text/plain' },
  ],
  ['POST', '/email/send', undefined],
  ['POST', '/sms/send', { to: '+14155550123', message: 'hello', from: 'Acme' }],
  ['POST', '/sms/send', { to: '+1', message: 'hello' }],
  [
    'POST',
    '/whatsapp/send',
    { to: '+14155550123', template: 'order_update', language: 'en_US', parameters: { a: 'b' } },
  ],
  ['POST', '/whatsapp/send', { to: '+14155550123', template: 'Bad', language: 'en' }],
  ['POST', '/subscribers', { email: 'ana@example.com', first_name: 'Ana', tags: ['x', 'x'] }],
  ['POST', '/subscribers', { email: 'ANA@example.com' }],
  ['POST', '/subscribers', { email: 'zoe@example.com', first_name: 'Zoë 👍 \ud800' }],
  ['POST', '/subscribers', { firstName: 'Ana' }],
  ['GET', '/subscribers?page=1&limit=5'],
  ['GET', '/subscribers?limit=500'],
  ['GET', '/subscribers/sub_missing'],
  ['PUT', '/subscribers/sub_missing', { first_name: 'x' }],
  ['GET', '/unknown'],
  ['DELETE', '/email/send'],
  ['GET', '/subscribers', undefined, {}],
  ['GET', '/subscribers', undefined, { authorization: 'Bearer nope' }],
  ['POST', '/sms/send', { to: '+15005550009', message: 'magic' }],
  ['GET', '/subscribers', undefined, { authorization: 'Bearer test_pro', prefer: 'code=503' }],
]

function normalise(text: string): unknown {
  return JSON.parse(
    text
      .replace(/"(msg|sub)_[A-Za-z0-9]{24}"/g, '"$1_ID"')
      .replace(/\/subscribers\/sub_[A-Za-z0-9]{24}/g, '/subscribers/sub_ID')
      .replace(/"\d{4}-\d\d-\d\dT[^"]+Z"/g, '"TIME"'),
  )
}

// Content-Length too: without it msw's interceptor ends an answer with its connection (docs/decisions/msw-parse.md).
const apiHeaders = ['content-type', 'content-length', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining']

describe('parity: standalone server and in-process answer identically', () => {
  const inproc = direct({ subscribers: 3, seed: 7 })
  let server: Awaited<ReturnType<typeof standalone>>
  beforeAll(async () => {
    server = await standalone({ subscribers: 3, seed: 7 })
  })
  afterAll(async () => {
    inproc.dispose()
    await server.close()
  })

  it('for every request of the list', async () => {
    for (const [method, path, body, headers] of requests) {
      const h = headers ?? auth()
      const encoded = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
      const viaHttp = await fetch(`${server.base}${path}`, { method, headers: h, body: encoded })
      const viaMsw = await inproc.call(method, path, body, h)
      const label = `${method} ${path}`
      expect(viaHttp.status, label).toBe(viaMsw.status)
      expect(normalise(await viaHttp.text()), label).toEqual(normalise(await viaMsw.text()))
      for (const name of apiHeaders)
        expect(viaHttp.headers.get(name), `${label} ${name}`).toBe(viaMsw.headers.get(name))
    }
  })

  it('serves the same seeded subscribers byte for byte', async () => {
    const a = await (await fetch(`${server.base}/subscribers?limit=100`, { headers: auth('test_starter') })).text()
    const b = await (await inproc.call('GET', '/subscribers?limit=100', undefined, auth('test_starter'))).text()
    expect(a).toBe(b)
    expect(JSON.parse(a).pagination.total).toBe(3)
  })
})

describe('standalone transport', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  beforeAll(async () => {
    server = await standalone()
  })
  afterAll(() => server.close())

  it('answers CORS preflights without auth and exposes the rate-limit headers', async () => {
    const pre = await fetch(`${server.base}/email/send`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, prefer',
      },
    })
    expect(pre.status).toBe(204)
    // A loopback origin on another port gets the grant, echoed (not `*`): see test/browser/cors.test.ts for other origins.
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(pre.headers.get('vary')).toMatch(/Origin/)
    expect(pre.headers.get('access-control-allow-headers')).toMatch(
      /Authorization.*Content-Type.*Prefer.*X-Sendbox-Admin-Token/,
    )
    const res = await fetch(`${server.base}/subscribers`, { headers: { ...auth(), origin: 'http://localhost:5173' } })
    expect(res.headers.get('access-control-expose-headers')).toMatch(
      /Retry-After.*X-RateLimit-Limit.*X-RateLimit-Remaining.*X-RateLimit-Reset/,
    )
  })

  it('answers paths outside /v1 and /__sandbox with the API error object', async () => {
    const res = await fetch(`${server.running.url}/favicon.ico`)
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('not_found')
  })

  it('stops reading a body over 1 MiB, answers payload_too_large and closes the connection', async () => {
    const res = await fetch(`${server.base}/email/send`, {
      method: 'POST',
      headers: auth(),
      body: 'x'.repeat(3 * 1024 * 1024),
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('payload_too_large')
    expect((await fetch(`${server.base}/subscribers`, { headers: auth() })).status).toBe(200)
  })

  it('serves the health check', async () => {
    const res = await fetch(`${server.running.url}/__sandbox/health`)
    expect(await res.json()).toMatchObject({ ok: true, version: expect.any(String) })
  })
})
