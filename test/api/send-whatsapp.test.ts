import { afterAll, describe, expect, it } from 'vitest'
import { inProcess } from '../helpers.js'

/** The part of a captured WhatsApp message these tests read. */
type Whatsapp = { whatsapp: { parameters: Record<string, string> } }

const api = inProcess()
afterAll(() => api.dispose())

const valid = {
  to: '+447700900123',
  template: 'order_update',
  language: 'en_US',
  parameters: { name: 'Ana', order: '#42' },
}
const post = (body: unknown) => api.call('POST', '/whatsapp/send', body)
const errorOf = async (body: unknown) => (await (await post(body)).json()).error

describe('POST /whatsapp/send', () => {
  it('accepts a template message, parameters optional', async () => {
    expect((await post(valid)).status).toBe(200)
    const { parameters: _omit, ...withoutParameters } = valid
    const res = await post(withoutParameters)
    expect(res.status).toBe(200)
    const { message_id } = await res.json()
    expect((api.sandbox.outbox.get(message_id) as Whatsapp | undefined)?.whatsapp.parameters).toEqual({})
  })

  it.each(['Order_Update', 'order-update', '', 'x'.repeat(513)])('rejects template %j', async (template) => {
    expect(await errorOf({ ...valid, template })).toMatchObject({ code: 'invalid_parameter', param: 'template' })
  })

  it.each(['EN', 'en-US', 'en_us', 'english', ''])('rejects language %j', async (language) => {
    expect(await errorOf({ ...valid, language })).toMatchObject({ code: 'invalid_parameter', param: 'language' })
  })

  it.each(['pt', 'pt_BR', 'fil'])('accepts language %j', async (language) => {
    expect((await post({ ...valid, language })).status).toBe(200)
  })

  it('wants parameters to be an object of strings', async () => {
    expect(await errorOf({ ...valid, parameters: ['a'] })).toMatchObject({
      code: 'invalid_parameter',
      param: 'parameters',
    })
    expect(await errorOf({ ...valid, parameters: { n: 1 } })).toMatchObject({
      code: 'invalid_parameter',
      param: 'parameters.n',
    })
  })

  it('keeps a "__proto__" parameter as plain data and pollutes nothing', async () => {
    const raw =
      '{"to":"+447700900123","template":"t","language":"en","parameters":{"__proto__":{"polluted":"yes"},"name":"Ana"}}'
    expect((await post(raw)).status).toBe(400) // a nested object is not a string value
    const ok = await post(
      '{"to":"+447700900123","template":"t","language":"en","parameters":{"__proto__":"p","name":"Ana"}}',
    )
    expect(ok.status).toBe(200)
    const message = api.sandbox.outbox.get((await ok.json()).message_id) as Whatsapp
    expect(Object.keys(message.whatsapp.parameters)).toEqual(['__proto__', 'name'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('requires to, template and language, in that order', async () => {
    expect(await errorOf({})).toMatchObject({ code: 'missing_parameter', param: 'to' })
    expect(await errorOf({ to: '+447700900123' })).toMatchObject({ code: 'missing_parameter', param: 'template' })
    expect(await errorOf({ to: '+447700900123', template: 't' })).toMatchObject({
      code: 'missing_parameter',
      param: 'language',
    })
  })

  it('answers invalid_phone for a bad recipient', async () => {
    expect(await errorOf({ ...valid, to: '07700900123' })).toMatchObject({ code: 'invalid_phone', param: 'to' })
  })
})
