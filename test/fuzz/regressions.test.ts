/**
 * Regressions the fuzzers found, pinned as plain examples so they stay fixed even if a seed changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auth, inProcess, standalone } from '../helpers.js'
import { errorShapeProblem } from './fuzz-kit.js'

describe('found by fuzzing, in-process', () => {
  let sb: ReturnType<typeof inProcess>
  beforeAll(() => {
    sb = inProcess()
  })
  afterAll(() => sb.dispose())

  it('an empty-string key is an unknown field, not silently accepted', async () => {
    const response = await sb.call('POST', '/sms/send', '{"":{},"to":"+14155550123","message":"hi"}')
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatchObject({ code: 'unknown_parameter', param: '' })
    expect(sb.sandbox.outbox.size).toBe(0)
  })

  it('a malformed percent-escape in a /v1 path is an unknown path (401 without a key, else 404), not a 500 with a stack trace', async () => {
    for (const path of ['/%', '/subscribers/%zz', '/subscribers/%E0%A4%A', '/sms/%']) {
      const keyless = await sb.call('GET', path, undefined, {})
      expect(keyless.status).toBe(401)
      const response = await sb.call('PUT', path, { first_name: 'x' })
      const text = await response.text()
      expect(response.status, `${path}: ${text}`).toBe(404)
      expect(errorShapeProblem(JSON.parse(text))).toBeUndefined()
      expect(text).not.toMatch(/node_modules|\n\s+at /)
    }
  })

  it('a malformed percent-escape under /__sandbox is 404', async () => {
    const response = await fetch(`${new URL(sb.base).origin}/__sandbox/messages/%zz`)
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('not_found')
  })
})

describe('found by fuzzing, in-process with an admin token', () => {
  let sb: ReturnType<typeof inProcess>
  beforeAll(() => {
    sb = inProcess({ adminToken: 'adm_secret' })
  })
  afterAll(() => sb.dispose())

  it('a malformed percent-escape under /__sandbox still needs the admin token', async () => {
    const origin = new URL(sb.base).origin
    expect((await fetch(`${origin}/__sandbox/%`)).status).toBe(401)
    expect((await fetch(`${origin}/__sandbox/%`, { headers: { authorization: 'Bearer adm_secret' } })).status).toBe(404)
  })
})

describe('found by fuzzing, over HTTP', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  beforeAll(async () => {
    server = await standalone()
  })
  afterAll(() => server.close())

  it('a malformed percent-escape is 404 over HTTP too, not 500', async () => {
    const response = await fetch(`${server.base}/subscribers/%zz`, { headers: auth() })
    expect(response.status).toBe(404)
    const control = await fetch(`${server.running.url}/__sandbox/%`)
    expect(control.status).toBe(404)
  })

  it('a request line or headers too large for the parser get a 400 with the error object, not an empty body', async () => {
    const response = await fetch(`${server.base}/subscribers/${'x'.repeat(20_000)}`, { headers: auth() })
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(errorShapeProblem(body)).toBeUndefined()
    const next = await fetch(`${server.base}/subscribers`, { headers: auth() })
    expect(next.status).toBe(200)
  })
})
