import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { auth, standalone } from '../helpers.js'

/**
 * Issue 26's "done when", against the standalone server with a templates file and a real
 * webhook receiver that verifies every post with the `standardwebhooks` library.
 */
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const TEMPLATES = {
  templates: [
    {
      name: 'order_update',
      language: 'en_US',
      header: 'Order {{order}}',
      body: 'Hi {{name}}, your order {{order}} ships today.',
      footer: 'Reply STOP to opt out',
      buttons: [{ text: 'Track order', url: 'https://shop.test/track/{{order}}' }, 'Thanks!'],
    },
    { name: 'order_update', language: 'es', body: 'Hola {{name}}, tu pedido {{order}} sale hoy.' },
    { name: 'otp_login', language: 'en', body: 'Your login code is {{1}}. It expires in 10 minutes.' },
  ],
}

interface Received {
  id: string
  type: string
  verified: unknown
}

async function receiver() {
  const verifier = new Webhook(SECRET)
  const received: Received[] = []
  const failures: string[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      try {
        const verified = verifier.verify(body, req.headers as Record<string, string>) as { type: string }
        received.push({ id: String(req.headers['webhook-id']), type: verified.type, verified })
        res.statusCode = 204
      } catch (error) {
        failures.push((error as Error).message)
        res.statusCode = 400
      }
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return { url, received, failures, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

let hook: Awaited<ReturnType<typeof receiver>>
let box: Awaited<ReturnType<typeof standalone>>
let control: string
beforeAll(async () => {
  hook = await receiver()
  box = await standalone({
    deliveryMs: 0,
    templates: TEMPLATES,
    webhook: { url: hook.url, secret: SECRET, baseDelayMs: 10 },
    apiKeys: { test_pro: 'pro', test_other: 'pro' },
  })
  control = `${new URL(box.base).origin}/__sandbox`
})
afterAll(async () => {
  await box.close()
  await hook.close()
})
beforeEach(() => box.sandbox.reset())

const post = (path: string, body: unknown, key = 'test_pro') =>
  fetch(`${box.base}${path}`, { method: 'POST', headers: auth(key), body: JSON.stringify(body) })
const controlPost = (path: string, body?: unknown) =>
  fetch(`${control}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const whatsapp = (template: string, language: string, parameters: Record<string, string>, to = '+14155550123') =>
  post('/whatsapp/send', { to, template, language, parameters })

describe('WhatsApp templates', () => {
  it('refuse a wrong send with the documented error and param', async () => {
    const cases: Array<[Response, number, string, string, RegExp]> = [
      [
        await whatsapp('order_updat', 'en_US', {}),
        400,
        'invalid_parameter',
        'template',
        /Closest known: order_update, otp_login/,
      ],
      [
        await whatsapp('order_update', 'fr', { name: 'Ana', order: '1' }),
        400,
        'invalid_parameter',
        'language',
        /Its languages: en_US, es/,
      ],
      [
        await whatsapp('order_update', 'en_US', { name: 'Ana' }),
        400,
        'missing_parameter',
        'parameters.order',
        /needs `parameters.order`/,
      ],
      [
        await whatsapp('order_update', 'en_US', { name: 'Ana', order: '1', coupon: 'X' }),
        400,
        'unknown_parameter',
        'parameters.coupon',
        /no parameter `coupon`/,
      ],
    ]
    for (const [res, status, code, param, message] of cases) {
      expect(res.status).toBe(status)
      const { error } = (await res.json()) as { error: { code: string; param: string; message: string } }
      expect(error).toMatchObject({ code, param })
      expect(error.message).toMatch(message)
    }
    expect(box.sandbox.outbox.size).toBe(0)
  })

  it('capture a right send as the recipient reads it, codes and links from it', async () => {
    expect((await whatsapp('order_update', 'en_US', { name: 'Ana', order: 'A-1001' })).status).toBe(200)
    expect((await whatsapp('otp_login', 'en', { 1: '482913' })).status).toBe(200)
    const [otp, order] = box.sandbox.outbox.list({ channel: 'whatsapp' })
    expect(order.text).toBe(
      'Order A-1001\nHi Ana, your order A-1001 ships today.\nReply STOP to opt out\n[Track order] https://shop.test/track/A-1001\n[Thanks!]',
    )
    expect(order.links).toEqual(['https://shop.test/track/A-1001'])
    expect(order.whatsapp.rendered).toMatchObject({
      header: 'Order A-1001',
      buttons: [
        { text: 'Track order', url: 'https://shop.test/track/A-1001' },
        { text: 'Thanks!', url: null },
      ],
    })
    expect(otp.codes).toEqual(['482913'])
    const listed = (await (await fetch(`${control}/templates`)).json()) as {
      configured: boolean
      data: Array<{ name: string; placeholders: string[] }>
    }
    expect(listed.configured).toBe(true)
    expect(listed.data.map((t) => `${t.name}:${t.placeholders.join(',')}`)).toEqual([
      'order_update:order,name',
      'order_update:name,order',
      'otp_login:1',
    ])
  })

  it('are described in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${control}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { description?: string }>>
    }
    const send = Object.entries(doc.paths).find(([path]) => path.endsWith('/whatsapp/send'))![1].post
    for (const code of [
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'parameters.<name>',
      '--templates',
    ])
      expect(send.description).toContain(code)
  })
})

describe('replies and opt-outs', () => {
  it('STOP makes the next send fail as opted out for that account only; START undoes it', async () => {
    const reply = await controlPost('/inbound', {
      channel: 'sms',
      key: 'test_pro',
      from: '+14155550123',
      text: ' stop ',
    })
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({
      action: 'opt_out',
      opted_out: true,
      message: { direction: 'inbound', channel: 'sms', text: ' stop ' },
    })
    const sent = await post('/sms/send', { to: '+14155550123', message: 'Sale!' })
    expect(await sent.json()).toMatchObject({ status: 'queued' })
    const other = await post('/sms/send', { to: '+14155550123', message: 'Sale!' }, 'test_other')
    const mine = box.sandbox.outbox.list({ direction: 'outbound', account: box.sandbox.accountOf('test_pro') })[0]
    expect(mine).toMatchObject({ status: 'failed', reason: 'opted out (STOP)' })
    expect(mine.status_history.at(-1)).toMatchObject({ error_code: 'opted_out' })
    expect(box.sandbox.outbox.get(((await other.json()) as { message_id: string }).message_id)).toMatchObject({
      status: 'delivered',
    })
    expect(((await (await fetch(`${control}/opt-outs`)).json()) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ number: '+14155550123', keyword: 'STOP' }),
    ])
    await controlPost('/inbound', { channel: 'sms', key: 'test_pro', from: '+14155550123', text: 'START' })
    await post('/sms/send', { to: '+14155550123', message: 'Back' })
    expect(
      box.sandbox.outbox.list({ direction: 'outbound', account: box.sandbox.accountOf('test_pro') })[0],
    ).toMatchObject({ status: 'delivered' })
    expect(box.sandbox.outbox.list({ direction: 'inbound' })).toHaveLength(2)
    expect(
      ((await (await fetch(`${control}/messages?direction=inbound`)).json()) as { pagination: { total: number } })
        .pagination.total,
    ).toBe(2)
  })

  it('an inbound for an unknown key or account is 400 naming it', async () => {
    const key = await controlPost('/inbound', { channel: 'sms', key: 'nope', from: '+14155550123', text: 'hi' })
    expect(key.status).toBe(400)
    expect(await key.json()).toMatchObject({
      error: { code: 'invalid_parameter', param: 'key', message: expect.stringContaining('"nope"') },
    })
    const account = await controlPost('/inbound', {
      channel: 'whatsapp',
      account: 'acct_nope',
      from: '+14155550123',
      text: 'hi',
    })
    expect(await account.json()).toMatchObject({
      error: { code: 'invalid_parameter', param: 'account', message: expect.stringContaining('"acct_nope"') },
    })
  })
})

describe('tracing', () => {
  it("an email's first link is its anchor and its journal entry names it", async () => {
    const sent = await post('/email/send', {
      to: 'ana@example.com',
      subject: 'Reset',
      html: '<p>Hi</p><a href="https://app.test/reset?t=1">Reset</a> <img src="https://cdn.test/logo.png">',
    })
    const { message_id } = (await sent.json()) as { message_id: string }
    expect(box.sandbox.outbox.get(message_id)!.links[0]).toBe('https://app.test/reset?t=1')
    const journal = (await (await fetch(`${control}/requests?limit=5`)).json()) as {
      data: Array<{ path: string; message_id: string | null; request_headers: Record<string, string> }>
    }
    const entry = journal.data.find((e) => e.path === '/v1/email/send')!
    expect(entry).toMatchObject({
      message_id,
      request_headers: { authorization: 'Bearer t…o', 'content-type': 'application/json' },
    })
  })
})

describe('webhooks an app can trust', () => {
  it('verify with standardwebhooks; a replay reaches the receiver with the same id', async () => {
    await box.sandbox.webhooks!.idle()
    hook.received.length = 0
    await post('/sms/send', { to: '+15005550001', message: 'hi' })
    await controlPost('/inbound', { channel: 'sms', key: 'test_pro', from: '+14155550123', text: 'HELP' })
    await box.sandbox.webhooks!.idle()
    expect(hook.failures).toEqual([])
    expect(hook.received.map((r) => r.type).sort()).toEqual(['message.failed', 'message.received', 'message.sent'])
    expect(hook.received.find((r) => r.type === 'message.failed')!.verified).toMatchObject({
      error_code: 'unreachable',
    })
    const { data } = (await (await fetch(`${control}/webhooks`)).json()) as {
      data: Array<{
        id: string
        webhook_id: string
        event: string
        response: { status: number }
        request: { headers: Record<string, string> }
      }>
    }
    const failed = data.find((a) => a.event === 'message.failed')!
    expect(failed).toMatchObject({
      response: { status: 204 },
      request: { headers: { 'webhook-id': failed.webhook_id } },
    })
    const replay = await controlPost(`/webhooks/${failed.id}/replay`)
    expect(replay.status).toBe(200)
    await box.sandbox.webhooks!.idle()
    expect(hook.received.at(-1)).toMatchObject({ id: failed.webhook_id, type: 'message.failed' })
    expect((await controlPost('/webhooks/wha_unknown/replay')).status).toBe(404)
  })
})
