import { afterAll, describe, expect, it } from 'vitest'
import { auth, inProcess } from '../helpers.js'

const api = inProcess()
afterAll(() => api.dispose())

const valid = JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<p>Hi</p>' })
const errorOf = async (res: Response) => ({ status: res.status, ...(await res.json()).error })

describe('content type and JSON', () => {
  it.each([
    ['missing', undefined],
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['json-ish', 'application/jsonp'],
  ])('rejects a %s Content-Type with invalid_content_type', async (_name, contentType) => {
    const headers: Record<string, string> = { authorization: 'Bearer test_pro' }
    if (contentType) headers['content-type'] = contentType
    expect(await errorOf(await api.call('POST', '/email/send', valid, headers))).toMatchObject({
      status: 400,
      code: 'invalid_content_type',
    })
  })

  it('accepts parameters and any case on the media type', async () => {
    for (const contentType of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset=UTF-8',
    ]) {
      expect(
        (
          await api.call('POST', '/email/send', valid, {
            authorization: 'Bearer test_pro',
            'content-type': contentType,
          })
        ).status,
      ).toBe(200)
    }
  })

  it.each(['{', '{"to":', "{'to':'x'}", '{"a":1,}', 'undefined'])(
    'rejects malformed JSON %j with invalid_json',
    async (body) => {
      expect(await errorOf(await api.call('POST', '/email/send', body))).toMatchObject({
        status: 400,
        code: 'invalid_json',
      })
    },
  )

  it.each(['[]', '"text"', '42', 'null', 'true'])('rejects a JSON %s that is not an object', async (body) => {
    expect(await errorOf(await api.call('POST', '/email/send', body))).toMatchObject({
      status: 400,
      code: 'invalid_json',
    })
  })

  it('answers a POST or PUT without a body with invalid_json, whatever the Content-Type', async () => {
    for (const headers of [auth(), { authorization: 'Bearer test_pro', 'content-type': 'text/plain' }]) {
      const e = await errorOf(await api.call('POST', '/email/send', undefined, headers))
      expect(e).toMatchObject({ status: 400, code: 'invalid_json' })
      expect(e.message).toMatch(/JSON body is required/)
    }
  })

  it('rejects bodies over 1 MiB with payload_too_large, before the content type', async () => {
    const big = JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: 'x'.repeat(1024 * 1024) })
    expect(
      await errorOf(
        await api.call('POST', '/email/send', big, { authorization: 'Bearer test_pro', 'content-type': 'text/plain' }),
      ),
    ).toMatchObject({ status: 400, code: 'payload_too_large' })
    // Just under the limit is fine.
    const fits = JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: 'x'.repeat(1024 * 1024 - 100) })
    expect((await api.call('POST', '/email/send', fits)).status).toBe(200)
  })

  it('rejects invalid UTF-8 as invalid_json', async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x74, 0x6f, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])
    const res = await fetch(`${api.base}/email/send`, { method: 'POST', headers: auth(), body: bytes })
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'invalid_json' })
  })
})

describe('routes', () => {
  it.each([
    ['GET', '/email/send'],
    ['DELETE', '/subscribers/sub_x'],
    ['PATCH', '/subscribers/sub_x'],
    ['POST', '/subscribers/sub_x'],
    ['GET', '/v2/anything'],
    ['GET', ''],
    ['DELETE', '/subscribers'],
  ])('answers %s %s with 404 not_found', async (method, path) => {
    const res = await api.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : '{}')
    expect(await errorOf(res)).toMatchObject({ status: 404, code: 'not_found' })
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000')
  })

  it('checks the route before the body: a wrong method with a bad body is 404', async () => {
    expect((await api.call('PATCH', '/email/send', '{bad')).status).toBe(404)
  })

  it('never leaks a stack trace', async () => {
    const res = await api.call('POST', '/email/send', '{"to":')
    const text = await res.text()
    expect(text).not.toMatch(/\bat .*\(|node_modules|\.ts:\d+/)
  })
})
