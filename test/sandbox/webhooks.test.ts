import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { direct, fakeClock } from '../helpers.js'

interface Received {
  body: string
  signature: string | undefined
  attempt: string | undefined
}

/** A local receiver that fails the first `failures` posts of each message, then answers 200. */
async function receiver(failures: number) {
  const received: Received[] = []
  const attempts = new Map<string, number>()
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      received.push({
        body,
        signature: req.headers['x-sendbox-signature'] as string,
        attempt: req.headers['x-sendbox-attempt'] as string,
      })
      const key = body
      const n = (attempts.get(key) ?? 0) + 1
      attempts.set(key, n)
      res.statusCode = n <= failures ? 503 : 200
      res.end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) }
}

describe('lifecycle webhooks', () => {
  let hook: Awaited<ReturnType<typeof receiver>>
  beforeAll(async () => {
    hook = await receiver(0)
  })
  afterAll(() => hook.close())

  it('a clock jump (sandbox.clock.advance) fires the webhooks of every step it makes due, in order', async () => {
    const own = await receiver(0)
    const api = direct({ deliveryMs: 60_000, webhook: { url: own.url } })
    const first = (await (await api.call('POST', '/sms/send', { to: '+15005550001', message: 'one' })).json())
      .message_id
    const second = (await (await api.call('POST', '/sms/send', { to: '+15005550006', message: 'two' })).json())
      .message_id
    const name = (id: string) => (id === first ? 'first' : id === second ? 'second' : '?')
    const fired: string[] = []
    api.sandbox.events.subscribe((event) => {
      if (event.type === 'message.status')
        fired.push(`${name(event.message.message_id)} message.${event.change.status}`)
    })
    api.sandbox.clock.advance(120_000)
    const expected = ['first message.sent', 'second message.sent', 'first message.failed', 'second message.delivered']
    // Fired in due order, synchronously with the jump…
    expect(fired).toEqual(expected)
    await api.sandbox.webhooks!.idle()
    // …and each posted (posts run in parallel, so they may arrive in any order).
    const events = own.received.map((r) => JSON.parse(r.body) as { type: string; message_id: string; at: string })
    expect(events.map((e) => `${name(e.message_id)} ${e.type}`).sort()).toEqual([...expected].sort())
    api.sandbox.dispose()
    await own.close()
  })

  it('posts each step, signed with HMAC-SHA256 of the body', async () => {
    const clock = fakeClock()
    const api = direct({ now: clock.now, deliveryMs: 1_000, webhook: { url: hook.url, secret: 's3cret' } })
    const { message_id } = await (await api.call('POST', '/sms/send', { to: '+15005550001', message: 'hi' })).json()
    clock.advance(2_000)
    api.sandbox.outbox.list()
    await api.sandbox.webhooks!.idle()
    // Fired in order, posted concurrently: the receiver may see the second step first (a flake under load).
    const events = hook.received.map((r) => JSON.parse(r.body)).sort((a, b) => a.at.localeCompare(b.at))
    expect(events).toEqual([
      {
        type: 'message.sent',
        message_id,
        channel: 'sms',
        status: 'sent',
        at: new Date(clock.now() - 1_000).toISOString(),
      },
      {
        type: 'message.failed',
        message_id,
        channel: 'sms',
        status: 'failed',
        reason: expect.stringMatching(/unreachable/),
        error_code: 'unreachable',
        at: new Date(clock.now()).toISOString(),
      },
    ])
    for (const r of hook.received) {
      expect(r.signature).toBe(`sha256=${createHmac('sha256', 's3cret').update(r.body).digest('hex')}`)
    }
    const journal = api.sandbox.journal.list().filter((e) => e.kind === 'webhook')
    expect(journal).toHaveLength(2)
    expect(journal[0]).toMatchObject({ method: 'POST', status: 200, error_code: null })
    api.dispose()
  })
})

describe('webhook retries', () => {
  it('retries with exponential backoff and journals every attempt', async () => {
    const flaky = await receiver(2)
    const api = direct({ deliveryMs: 0, webhook: { url: flaky.url, baseDelayMs: 20 } })
    const started = performance.now()
    await api.call('POST', '/email/send', { to: 'ana@example.com', subject: 'x', html: 'x' })
    await api.sandbox.webhooks!.idle()
    // Two events (sent, delivered), each failing twice then passing: 6 posts.
    expect(flaky.received).toHaveLength(6)
    expect(flaky.received.map((r) => r.attempt).sort()).toEqual(['1', '1', '2', '2', '3', '3'])
    expect(performance.now() - started).toBeGreaterThanOrEqual(20 + 40)
    const statuses = api.sandbox.journal
      .list()
      .filter((e) => e.kind === 'webhook')
      .map((e) => e.status)
    expect(statuses.filter((s) => s === 503)).toHaveLength(4)
    expect(statuses.filter((s) => s === 200)).toHaveLength(2)
    api.dispose()
    await flaky.close()
  })

  it('gives up after 5 attempts and never blocks the API', async () => {
    const api = direct({ deliveryMs: 0, webhook: { url: 'http://127.0.0.1:9/unreachable', baseDelayMs: 5 } })
    const started = performance.now()
    const res = await api.call('POST', '/email/send', { to: 'ana@example.com', subject: 'x', html: 'x' })
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(1_000)
    await api.sandbox.webhooks!.idle()
    const attempts = api.sandbox.journal.list().filter((e) => e.kind === 'webhook')
    expect(attempts).toHaveLength(10) // 2 events × 5 attempts
    expect(attempts.every((a) => a.error_code === 'network_error')).toBe(true)
    api.dispose()
  })
})
