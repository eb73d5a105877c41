import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { auth, fakeClock, inProcess, ORIGIN } from '../helpers.js'

const clock = fakeClock()
const api = inProcess({ now: clock.now, deliveryMs: 1_000 })
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

const email = (to = 'ana@example.com', extra: Record<string, unknown> = {}) =>
  api.call('POST', '/email/send', { to, subject: `Hello ${to}`, html: '<h1>Hi</h1><p>Welcome</p>', ...extra })
const sms = (to = '+14155550123', message = 'Your code is 1234') => api.call('POST', '/sms/send', { to, message })
const whatsapp = (to = '+14155550123') =>
  api.call('POST', '/whatsapp/send', {
    to,
    template: 'order_update',
    language: 'en_US',
    parameters: { name: 'Ana', order: '42' },
  })
const control = (method: string, path: string, body?: unknown) =>
  fetch(`${ORIGIN}/__sandbox${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  })

describe('outbox, in-process', () => {
  it('captures every accepted send with channel, account, plan, masked key and the body as sent', async () => {
    const res = await email('ana@example.com', { from: { email: 'news@acme.test', name: 'Acme' } })
    const { message_id } = await res.json()
    const message = api.sandbox.outbox.get(message_id)!
    expect(message).toMatchObject({
      message_id,
      channel: 'email',
      account: api.sandbox.accountOf('test_pro'),
      plan: 'pro',
      key: 't…o',
      to: 'ana@example.com',
      status: 'queued',
      request: {
        to: 'ana@example.com',
        subject: 'Hello ana@example.com',
        html: '<h1>Hi</h1><p>Welcome</p>',
        from: { email: 'news@acme.test', name: 'Acme' },
      },
      email: {
        subject: 'Hello ana@example.com',
        from: { email: 'news@acme.test', name: 'Acme' },
        html: '<h1>Hi</h1><p>Welcome</p>',
      },
    })
    expect(message.status_history).toEqual([{ status: 'queued', at: new Date(clock.now()).toISOString() }])
  })

  it('does not capture rejected sends', async () => {
    await api.call('POST', '/email/send', { to: 'bad' })
    await api.call('POST', '/email/send', { to: 'a@b.co', subject: 'x', html: 'x' }, auth('wrong'))
    expect(api.sandbox.outbox.list()).toHaveLength(0)
  })

  it('stores SMS encoding and segments, and a WhatsApp preview', async () => {
    const s = await (await sms('+14155550123', 'Grüße aus Köln — bis später 😀')).json()
    expect((api.sandbox.outbox.get(s.message_id) as { sms: unknown }).sms).toMatchObject({
      text: 'Grüße aus Köln — bis später 😀',
      encoding: 'UCS-2',
      segments: 1,
    })
    const g = await (await sms('+14155550123', 'x'.repeat(200))).json()
    expect((api.sandbox.outbox.get(g.message_id) as { sms: unknown }).sms).toMatchObject({
      encoding: 'GSM-7',
      units: 200,
      segments: 2,
    })
    const w = await (await whatsapp()).json()
    expect((api.sandbox.outbox.get(w.message_id) as { whatsapp: unknown }).whatsapp).toEqual({
      template: 'order_update',
      language: 'en_US',
      parameters: { name: 'Ana', order: '42' },
      preview: 'order_update (en_US): name=Ana, order=42',
    })
  })

  it('lists newest first, with filters', async () => {
    await email('ana@example.com')
    clock.advance(10)
    await sms()
    clock.advance(10)
    const since = clock.now()
    await whatsapp()
    clock.advance(10)
    await email('bo@example.com')
    const all = api.sandbox.outbox.list()
    expect(all.map((m) => m.channel)).toEqual(['email', 'whatsapp', 'sms', 'email'])
    expect(api.sandbox.outbox.list({ channel: 'email' }).map((m) => m.to)).toEqual([
      'bo@example.com',
      'ana@example.com',
    ])
    expect(api.sandbox.outbox.list({ to: 'ANA@example.com' })).toHaveLength(1)
    expect(api.sandbox.outbox.list({ since })).toHaveLength(2)
    expect(api.sandbox.outbox.list({ account: api.sandbox.accountOf('test_starter') })).toHaveLength(0)
    expect(api.sandbox.outbox.list({ status: 'queued' })).toHaveLength(4)
  })

  it('notifies subscribers and stops after unsubscribe', async () => {
    let calls = 0
    const unsubscribe = api.sandbox.outbox.subscribe(() => calls++)
    await email()
    expect(calls).toBeGreaterThan(0)
    unsubscribe()
    const before = calls
    await email()
    expect(calls).toBe(before)
  })

  it('evicts the oldest past the cap and reports it in health', async () => {
    const { createSandbox } = await import('../../src/index.js')
    const { getResponse } = await import('msw')
    const capped = createSandbox({ maxMessages: 5, now: clock.now })
    const ids: string[] = []
    for (let i = 0; i < 8; i++) {
      const req = new Request(`${capped.baseUrl}/sms/send`, {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify({ to: '+14155550123', message: `m${i}` }),
      })
      ids.push((await (await getResponse(capped.handlers, req))!.json()).message_id)
    }
    expect(capped.outbox.list().map((m) => m.message_id)).toEqual(ids.slice(3).reverse())
    expect(capped.outbox.get(ids[0])).toBeUndefined()
    const health = await (await getResponse(
      capped.handlers,
      new Request('https://api.sendbox.test/__sandbox/health'),
    ))!.json()
    expect(health).toMatchObject({ ok: true, messages: 5, messages_evicted: 3, max_messages: 5 })
    capped.dispose()
  })
})

describe('outbox over /__sandbox', () => {
  it('lists with the pagination envelope and filters', async () => {
    for (let i = 0; i < 5; i++) {
      await email(`u${i}@example.com`)
      clock.advance(1)
    }
    await sms()
    const page = await (await control('GET', '/messages?channel=email&limit=2&page=2')).json()
    expect(page.pagination).toEqual({ page: 2, limit: 2, total: 5, pages: 3 })
    expect(page.data.map((m: { to: string }) => m.to)).toEqual(['u2@example.com', 'u1@example.com'])
    const since = new Date(clock.now() - 1).toISOString()
    expect((await (await control('GET', `/messages?since=${encodeURIComponent(since)}`)).json()).pagination.total).toBe(
      2,
    )
    expect((await (await control('GET', `/messages?since=${clock.now()}`)).json()).pagination.total).toBe(1)
    expect(
      (await (await control('GET', `/messages?account=${api.sandbox.accountOf('test_pro')}&to=u0@example.com`)).json())
        .pagination.total,
    ).toBe(1)
  })

  it('rejects bad filters with the error object', async () => {
    for (const query of ['channel=fax', 'status=lost', 'since=yesterday', 'limit=0']) {
      const res = await control('GET', `/messages?${query}`)
      expect(res.status).toBe(400)
      expect((await res.json()).error.code).toBe('invalid_parameter')
    }
  })

  it('shows one message, its HTML, and 404s for unknown ids', async () => {
    const { message_id } = await (await email()).json()
    const one = await (await control('GET', `/messages/${message_id}`)).json()
    expect(one).toMatchObject({ message_id, channel: 'email', plan: 'pro', status_history: [{ status: 'queued' }] })
    const html = await control('GET', `/messages/${message_id}/html`)
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(html.headers.get('content-security-policy')).toMatch(/sandbox/)
    // No remote content, so no banner (issue 33): the email exactly as sent.
    expect(await html.text()).toBe('<h1>Hi</h1><p>Welcome</p>')
    expect((await control('GET', '/messages/msg_nope')).status).toBe(404)
    const { message_id: smsId } = await (await sms()).json()
    expect((await control('GET', `/messages/${smsId}/html`)).status).toBe(404)
  })

  it('clears with DELETE', async () => {
    await email()
    expect((await control('DELETE', '/messages')).status).toBe(200)
    expect(api.sandbox.outbox.list()).toHaveLength(0)
  })
})
