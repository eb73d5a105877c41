import { afterAll, describe, expect, it } from 'vitest'
import { inProcess } from '../helpers.js'

const api = inProcess()
afterAll(() => api.dispose())

const valid = { to: 'ana@example.com', subject: 'Welcome', html: '<h1>Hi Ana</h1>' }

async function error(body: unknown) {
  const res = await api.call('POST', '/email/send', body)
  expect(res.status).toBe(400)
  return (await res.json()).error as { code: string; message: string; param?: string }
}

describe('POST /email/send', () => {
  it('accepts a valid email and answers the reference shape', async () => {
    const res = await api.call('POST', '/email/send', { ...valid, from: { email: 'news@acme.test', name: 'Acme' } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(Object.keys(body)).toEqual(['success', 'message_id', 'status'])
    expect(body.success).toBe(true)
    expect(body.status).toBe('queued')
    expect(body.message_id).toMatch(/^msg_[A-Za-z0-9]{24}$/)
  })

  it('gives every message a unique id', async () => {
    const ids = await Promise.all(
      Array.from({ length: 50 }, async () => (await (await api.call('POST', '/email/send', valid)).json()).message_id),
    )
    expect(new Set(ids).size).toBe(50)
  })

  it.each([
    ['to', { subject: 'x', html: '<p>x</p>' }],
    ['subject', { to: 'ana@example.com', html: '<p>x</p>' }],
    ['html', { to: 'ana@example.com', subject: 'x' }],
  ])('requires %s', async (field, body) => {
    const e = await error(body)
    expect(e).toMatchObject({ code: 'missing_parameter', param: field })
    expect(e.message).toContain(field)
  })

  it('requires from.email when from is given', async () => {
    expect(await error({ ...valid, from: { name: 'Acme' } })).toMatchObject({
      code: 'missing_parameter',
      param: 'from.email',
    })
  })

  it.each(['ana@', 'ana', '@example.com', 'ana@example', '', 'a b@example.com', `${'a'.repeat(250)}@example.com`])(
    'rejects the address %j as invalid_email',
    async (to) => {
      expect(await error({ ...valid, to })).toMatchObject({ code: 'invalid_email', param: 'to' })
    },
  )

  it('rejects an invalid from.email as invalid_email', async () => {
    expect(await error({ ...valid, from: { email: 'nope' } })).toMatchObject({
      code: 'invalid_email',
      param: 'from.email',
    })
  })

  it('takes a single recipient: an array is invalid_parameter', async () => {
    const e = await error({ ...valid, to: ['ana@example.com', 'bo@example.com'] })
    expect(e).toMatchObject({ code: 'invalid_parameter', param: 'to' })
  })

  it('limits the subject to 1..998 code points', async () => {
    expect(await error({ ...valid, subject: '' })).toMatchObject({ code: 'invalid_parameter', param: 'subject' })
    expect(await error({ ...valid, subject: 'x'.repeat(999) })).toMatchObject({
      code: 'invalid_parameter',
      param: 'subject',
    })
    // 998 emoji are 1,996 UTF-16 units but 998 code points: accepted.
    expect((await api.call('POST', '/email/send', { ...valid, subject: '😀'.repeat(998) })).status).toBe(200)
  })

  it('rejects an empty html', async () => {
    expect(await error({ ...valid, html: '' })).toMatchObject({ code: 'invalid_parameter', param: 'html' })
  })

  it('rejects wrong types as invalid_parameter, naming the field', async () => {
    const e = await error({ ...valid, subject: 42 })
    expect(e).toMatchObject({ code: 'invalid_parameter', param: 'subject' })
    expect(e.message).toMatch(/`subject` must be a string/)
  })

  it('names unknown fields, top level and inside from', async () => {
    expect(await error({ ...valid, cc: 'bo@example.com' })).toMatchObject({ code: 'unknown_parameter', param: 'cc' })
    expect(await error({ ...valid, from: { email: 'a@b.co', foo: 1 } })).toMatchObject({
      code: 'unknown_parameter',
      param: 'from.foo',
    })
  })

  it('reports the first problem in the contract order: unknown → missing → field rules', async () => {
    expect((await error({ to: 'bad', typo: 1 })).code).toBe('unknown_parameter')
    expect((await error({ to: 'bad', subject: '' })).code).toBe('missing_parameter')
    expect(await error({ to: 'bad', subject: '', html: '' })).toMatchObject({ code: 'invalid_email', param: 'to' })
    expect(await error({ to: 'a@b.co', subject: '', html: '' })).toMatchObject({ param: 'subject' })
  })

  it('keeps error objects to code, message and param', async () => {
    const res = await api.call('POST', '/email/send', { ...valid, to: 'x' })
    const body = await res.json()
    expect(Object.keys(body)).toEqual(['error'])
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param'])
  })
})
