import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { KEYS, mountUi } from './ui-harness.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

const TEMPLATES = {
  templates: [
    {
      name: 'order_update',
      language: 'en',
      header: 'Order {{order}}',
      body: 'Hi {{name}}, it ships today.',
      footer: 'Shop',
      buttons: [{ text: 'Track', url: 'https://shop.test/t/{{order}}' }],
    },
  ],
}

describe('terminal UI: conversations', () => {
  it('shows a WhatsApp template as the recipient reads it, and a reply marked as one', async () => {
    app = mountUi({ templates: TEMPLATES })
    await app.send('whatsapp', {
      to: '+14155550123',
      template: 'order_update',
      language: 'en',
      parameters: { order: 'A-7', name: 'Ana' },
    })
    await app.waitFor((f) => f.includes('Hi Ana, it ships today.'))
    app.sandbox.inbound({ channel: 'sms', key: 'test_pro', from: '+14155550123', text: 'STOP' })
    await app.waitFor((f) => f.includes('↩ STOP'))
    await app.press('j')
    await app.press(KEYS.enter)
    const frame = await app.waitFor((f) => f.includes('As the recipient reads it'))
    for (const line of ['Order A-7', 'Hi Ana, it ships today.', 'Shop', '[Track] https://shop.test/t/A-7'])
      expect(frame).toContain(line)
  })

  it('opens a webhook attempt from the Requests tab with its signed headers', async () => {
    const HOOK = 'https://hooks.example.test/sendbox'
    app = mountUi({ rows: 60, deliveryMs: 0, webhook: { url: HOOK } })
    app.server.use(http.post(HOOK, () => HttpResponse.text('thanks')))
    await app.send('sms', { to: '+14155550123', message: 'hi' })
    await app.sandbox.webhooks!.idle()
    await app.press(KEYS.tab)
    await app.waitFor((f) => f.includes('POST↗'))
    await app.press(KEYS.enter)
    const frame = await app.waitFor((f) => f.includes('Request headers'))
    expect(frame).toMatch(/webhook-signature: v1,/)
    expect(frame).toMatch(/Webhook\s+evt_/)
    expect(frame).toContain('thanks')
  })
})

describe('tracing, for QA', () => {
  it('a message names the request that sent it, and the journal entry names the message', async () => {
    app = mountUi()
    const id = await app.send('sms', { to: '+14155550123', message: 'Your code is 123456' })
    const entry = app.sandbox.journal.list().find((e) => e.message_id === id)
    expect(entry).toMatchObject({ method: 'POST', path: '/v1/sms/send', status: 200 })
    await app.waitFor((f) => f.includes('Your code is 123456'))
    await app.press(KEYS.enter)
    await app.waitFor((f) => f.includes(`Request   request #${entry!.id} POST /v1/sms/send 200`))
  })
})

describe('a request, traced', () => {
  it('keeps its headers with Authorization masked and names the message it captured', async () => {
    app = mountUi({ rows: 50 })
    const id = await app.send('sms', { to: '+14155550123', message: 'hello' })
    const entry = app.sandbox.journal.list().find((e) => e.message_id === id)!
    expect(entry.request_headers).toMatchObject({
      authorization: expect.stringMatching(/^Bearer t…o$/),
      'content-type': 'application/json',
    })
    expect(JSON.stringify(entry)).not.toContain('test_pro')
    await app.press(KEYS.tab)
    await app.waitFor((f) => f.includes('/v1/sms/send'))
    await app.press(KEYS.enter)
    const frame = await app.waitFor((f) => f.includes('Request headers'))
    expect(frame).toContain(`Message   ${id} (Tab opens it)`)
    expect(frame).toMatch(/authorization: Bearer t…o/)
  })
})
