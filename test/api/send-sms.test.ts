import { afterAll, describe, expect, it } from 'vitest'
import { inProcess } from '../helpers.js'

const api = inProcess()
afterAll(() => api.dispose())

const valid = { to: '+14155550123', message: 'Your code is 1234' }
const post = (body: unknown) => api.call('POST', '/sms/send', body)

describe('POST /sms/send', () => {
  it('accepts a valid SMS with the send result shape', async () => {
    const res = await post({ ...valid, from: 'Acme' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      success: true,
      status: 'queued',
      message_id: expect.stringMatching(/^msg_/),
    })
  })

  it.each(['14155550123', '+1415555', '+1234567890123456', '+1 415 555 0123', '', '+14155550123x'])(
    'rejects %j as invalid_phone',
    async (to) => {
      const res = await post({ ...valid, to })
      expect(res.status).toBe(400)
      expect((await res.json()).error).toMatchObject({ code: 'invalid_phone', param: 'to' })
    },
  )

  it('accepts 8 and 15 digits', async () => {
    expect((await post({ ...valid, to: '+12345678' })).status).toBe(200)
    expect((await post({ ...valid, to: '+123456789012345' })).status).toBe(200)
  })

  it('limits message to 1..1600 code points', async () => {
    expect((await post({ ...valid, message: '' })).status).toBe(400)
    expect((await post({ ...valid, message: 'x'.repeat(1601) })).status).toBe(400)
    expect((await post({ ...valid, message: 'x'.repeat(1600) })).status).toBe(200)
  })

  it.each(['Acme Corp', 'TwelveChars1', '', 'Acme!'])('rejects sender %j as invalid_parameter', async (from) => {
    const res = await post({ ...valid, from })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toMatchObject({ code: 'invalid_parameter', param: 'from' })
  })

  it('accepts an E.164 sender', async () => {
    expect((await post({ ...valid, from: '+14155550100' })).status).toBe(200)
  })

  it('requires to and message', async () => {
    expect((await (await post({ message: 'x' })).json()).error).toMatchObject({
      code: 'missing_parameter',
      param: 'to',
    })
    expect((await (await post({ to: '+14155550123' })).json()).error).toMatchObject({
      code: 'missing_parameter',
      param: 'message',
    })
  })

  it('rejects an array of recipients', async () => {
    expect((await (await post({ ...valid, to: ['+14155550123'] })).json()).error).toMatchObject({
      code: 'invalid_parameter',
      param: 'to',
    })
  })
})
