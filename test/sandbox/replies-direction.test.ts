import { afterAll, describe, expect, it } from 'vitest'
import { matchers } from '../../src/matchers.js'
import { inProcess } from '../helpers.js'

expect.extend(matchers)

/** Issue 26 item 2: `direction` wherever filters work (list, wait, SSE, matchers), in-process. */
const api = inProcess({ deliveryMs: 0 })
const C = `${new URL(api.base).origin}/__sandbox`
afterAll(() => api.dispose())

describe('direction', () => {
  it('filters the list, the wait, the event stream and the matchers', async () => {
    const events = await fetch(`${C}/events?direction=inbound`)
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader()
    const waiting = api.sandbox.outbox.waitFor({ direction: 'inbound', channel: 'whatsapp' }, { timeout: 2_000 })
    await api.call('POST', '/sms/send', { to: '+14155550123', message: 'Your code is 123456' })
    const { message } = api.sandbox.inbound({
      channel: 'whatsapp',
      key: 'test_pro',
      from: '+14155550123',
      text: 'Thanks! Is 10:30 OK?',
    })
    expect(await waiting).toMatchObject({
      message_id: message.message_id,
      direction: 'inbound',
      status: 'delivered',
      whatsapp: { from: '+14155550123', template: '' },
    })
    expect(api.sandbox.outbox.list({ direction: 'outbound' }).map((m) => m.channel)).toEqual(['sms'])
    expect(api.sandbox).toHaveSent({ direction: 'inbound', channel: 'whatsapp', from: '+14155550123' })
    expect(api.sandbox).toHaveSentTimes({ direction: 'outbound' }, 1)
    const waited = (await (await fetch(`${C}/messages/wait?direction=inbound&timeout=0`)).json()) as {
      message_id: string
    }
    expect(waited.message_id).toBe(message.message_id)
    let text = ''
    while (!text.includes('event: message.captured')) text += (await reader.read()).value
    expect(text).toContain(message.message_id)
    expect(text).not.toMatch(/"channel":"sms"/)
    await reader.cancel()
  })

  it('a bad direction is refused where it is given', async () => {
    expect(() => api.sandbox.outbox.list({ direction: 'sideways' as never })).toThrow(
      /direction must be one of outbound, inbound/,
    )
    expect((await fetch(`${C}/messages?direction=sideways`)).status).toBe(400)
    expect(() => api.sandbox.inbound({ channel: 'sms', account: 'nobody', from: '+14155550123', text: 'hi' })).toThrow(
      /"nobody" is not an account/,
    )
  })
})

describe('search', () => {
  it('matches every word of a query in any order ("maria reset")', async () => {
    await api.call('POST', '/email/send', {
      to: 'maria@example.com',
      subject: 'Reset your password',
      html: '<p>Hi</p>',
    })
    await api.call('POST', '/email/send', { to: 'maria@example.com', subject: 'Welcome', html: '<p>Hi</p>' })
    expect(api.sandbox.outbox.list({ q: 'maria reset' }).map((m) => m.channel === 'email' && m.email.subject)).toEqual([
      'Reset your password',
    ])
    expect(api.sandbox.outbox.list({ q: '  RESET   maria ' })).toHaveLength(1)
    const listed = (await (await fetch(`${C}/messages?q=${encodeURIComponent('reset maria')}`)).json()) as {
      pagination: { total: number }
    }
    expect(listed.pagination.total).toBe(1)
  })
})
