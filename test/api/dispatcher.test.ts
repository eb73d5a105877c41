import { request as httpRequest } from 'node:http'
import { http, HttpResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standalone } from '../helpers.js'

/**
 * The standalone server answers through the sandbox's dispatcher (the handlers' route table and
 * guard chain, no Fetch objects) while `sandbox.handlers` is the list the sandbox built, and
 * through msw's `getResponse` over that list once a user has put handlers of their own in it.
 * Both ways must give the same bytes: status, every header but the date, and the body.
 */
interface Raw {
  status: number
  headers: Array<[string, string]>
  body: string
}

function send(port: number, method: string, path: string, headers: string[], body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: ['Host', `127.0.0.1:${port}`, ...headers] },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          const pairs: Array<[string, string]> = []
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            pairs.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]])
          resolve({ status: res.statusCode!, headers: pairs, body: text })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Ids, times and the date differ between two sandboxes; the rest must not. */
function comparable(raw: Raw) {
  const scrub = (text: string) =>
    text
      .replace(/(msg|sub)_[A-Za-z0-9]{24}/g, '$1_ID')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
      .replace(/"duration_ms":[\d.]+/g, '"duration_ms":0')
  return {
    status: raw.status,
    headers: raw.headers
      .filter(([name]) => name !== 'date' && name !== 'x-ratelimit-reset')
      // A length follows the body's unscrubbed text (a journal's durations change it): each side's
      // must be its own body's, and the bodies are compared scrubbed.
      .map(([name, value]) => [
        name,
        name === 'content-length' && Number(value) === Buffer.byteLength(raw.body) ? "its body's length" : scrub(value),
      ])
      .sort(([a], [b]) => a.localeCompare(b)),
    body: scrub(raw.body),
  }
}

const KEY = ['Authorization', 'Bearer test_pro']
const JSON_BODY = ['Content-Type', 'application/json']
const cases: Array<[string, string, string[], string?]> = [
  [
    'POST',
    '/v1/email/send',
    [...KEY, ...JSON_BODY],
    JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<p>Your code is 123456</p>' }),
  ],
  ['POST', '/v1/email/send', [...KEY, ...JSON_BODY], '{not json'],
  ['POST', '/v1/email/send', [...KEY, 'Content-Type', 'text/plain'], '{}'],
  ['POST', '/v1/sms/send', [...KEY, ...JSON_BODY], JSON.stringify({ to: '+14155550123', message: 'hello' })],
  ['POST', '/v1/sms/send', [...KEY, ...JSON_BODY], JSON.stringify({ to: '+15005550009', message: 'magic' })],
  ['GET', '/v1/subscribers?page=1&limit=2', KEY],
  ['HEAD', '/v1/subscribers?page=1&limit=2', KEY],
  ['GET', '/v1/subscribers?limit=0', KEY],
  ['GET', '/v1/subscribers/sub_missing', KEY],
  ['PUT', '/v1/subscribers/sub_missing', [...KEY, ...JSON_BODY], '{"first_name":"x"}'],
  ['GET', '/v1/SUBSCRIBERS', KEY],
  ['GET', '/v1/subscribers/', KEY],
  ['GET', '/v1/subscribers', []],
  // node:http keeps the first of two Authorization headers; Fetch joins them, and so does the dispatcher.
  ['GET', '/v1/subscribers', [...KEY, 'Authorization', 'Bearer test_starter']],
  ['GET', '/v1/subscribers', [...KEY, 'Prefer', 'code=503']],
  ['DELETE', '/v1/email/send', KEY],
  ['GET', '/__sandbox/messages?limit=1', []],
  ['GET', '/__sandbox/nothing-here', []],
  ['GET', '/__sandbox/requests?limit=1', []],
  ['GET', '/__sandbox/messages/wait?channel=sms&timeout=1', []],
  ['GET', '/', []],
  ['GET', '/__sandbox/ui', []],
  ['GET', '/__sandbox/ui/no-such-file.js', []],
  ['GET', '/elsewhere', []],
]

describe('the dispatcher and msw getResponse answer byte for byte alike', () => {
  let direct: Awaited<ReturnType<typeof standalone>>
  let viaMsw: Awaited<ReturnType<typeof standalone>>
  beforeAll(async () => {
    direct = await standalone({ subscribers: 3, seed: 7 })
    viaMsw = await standalone({ subscribers: 3, seed: 7 })
    // A handler of the user's own (for another host: it never matches) puts the server on msw's path.
    viaMsw.sandbox.handlers.push(http.get('http://other.test/x', () => HttpResponse.json({})))
  })
  afterAll(async () => {
    await direct.close()
    await viaMsw.close()
  })

  it('for requests of every kind: API, errors, HEAD, controls, the web inbox, unknown paths', async () => {
    for (const [method, path, headers, body] of cases) {
      const a = await send(direct.running.port, method, path, headers, body)
      const b = await send(viaMsw.running.port, method, path, headers, body)
      expect(comparable(a), `${method} ${path}`).toEqual(comparable(b))
    }
    // Both journals saw the same requests (durations differ, and with them the length).
    const journal = async (port: number) =>
      comparable(await send(port, 'GET', '/__sandbox/requests?limit=100', [])).body
    expect(await journal(direct.running.port)).toEqual(await journal(viaMsw.running.port))
  })

  it('serves handlers a user adds to sandbox.handlers after the server started, and goes back when they are removed', async () => {
    const hello = http.get('http://127.0.0.1:4010/v1/hello', () => HttpResponse.json({ hello: 'world' }))
    const before = await send(direct.running.port, 'GET', '/v1/hello', KEY)
    expect(before.status).toBe(404)
    direct.sandbox.handlers.unshift(hello)
    try {
      const during = await send(direct.running.port, 'GET', '/v1/hello', KEY)
      expect(during.status).toBe(200)
      expect(JSON.parse(during.body)).toEqual({ hello: 'world' })
    } finally {
      direct.sandbox.handlers.shift()
    }
    expect((await send(direct.running.port, 'GET', '/v1/hello', KEY)).status).toBe(404)
  })

  it('sees the path the handlers see: `//host/__sandbox/...` is a path of this origin outside the API and the controls', async () => {
    const before = JSON.parse((await send(direct.running.port, 'GET', '/__sandbox/messages?limit=1', [])).body)
      .pagination.total
    await send(
      direct.running.port,
      'POST',
      '/v1/sms/send',
      [...KEY, ...JSON_BODY],
      JSON.stringify({ to: '+14155550123', message: 'kept' }),
    )
    const answer = await send(direct.running.port, 'DELETE', '//evil.test/__sandbox/messages', [
      'Origin',
      'http://evil.test',
    ])
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.body).error.code).toBe('not_found')
    const after = JSON.parse((await send(direct.running.port, 'GET', '/__sandbox/messages?limit=1', [])).body)
      .pagination.total
    expect(after).toBe(before + 1)
  })
})
