// A consumer's test suite: sendbox in-process under MSW's setupServer, a fake clock for rate
// limits and delivery, faults for failure paths, and assertions on the outbox.
import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { API_BASE_URL, MessagingError, notifyOrderShipped } from './notifications.js'

let now = Date.UTC(2026, 0, 1, 9, 0, 0)
const sandbox = createSandbox({
  baseUrl: API_BASE_URL, // the app's production URL: its code needs no change
  apiKeys: { shop_key: 'starter' },
  limits: { starter: 4 }, // small, so the limit is easy to reach
  now: () => now, // the test moves time instead of sleeping
  deliveryMs: 1_000,
})
const server = setupServer(...sandbox.handlers)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(async () => {
  await sandbox.reset() // outbox, limits, faults and journal back to the start
  now += 120_000
})
afterAll(() => {
  server.close()
  sandbox.dispose()
})

const order = { id: 'A-1001', email: 'ana@example.com', phone: '+14155550123', name: 'Ana' }

describe('notifyOrderShipped', () => {
  it('sends an email and an SMS, both captured in the outbox', async () => {
    const ids = await notifyOrderShipped('shop_key', order)
    expect(ids).toHaveLength(2)
    const [email] = sandbox.outbox.list({ channel: 'email', to: 'ana@example.com' })
    expect(email.email).toMatchObject({ subject: 'Order A-1001 has shipped' })
    expect(email.email?.html).toContain('<b>A-1001</b>')
    const [sms] = sandbox.outbox.list({ channel: 'sms' })
    expect(sms).toMatchObject({ to: '+14155550123', sms: { text: 'Order A-1001 has shipped.', segments: 1 } })
  })

  it('sees the messages delivered once the clock moves on', async () => {
    const [id] = await notifyOrderShipped('shop_key', { ...order, phone: undefined })
    expect(sandbox.outbox.get(id)?.status).toBe('queued')
    now += 2_000 // two lifecycle steps of 1 s
    expect(sandbox.outbox.get(id)?.status_history.map((step) => step.status)).toEqual(['queued', 'sent', 'delivered'])
  })

  it("hits the plan's rate limit, then recovers when the window slides", async () => {
    await notifyOrderShipped('shop_key', order) // 2 requests
    await notifyOrderShipped('shop_key', order) // 4 requests: the limit
    const refused = await notifyOrderShipped('shop_key', order).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MessagingError)
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 60 })
    now += 60_000
    await expect(notifyOrderShipped('shop_key', order)).resolves.toHaveLength(2)
  })

  it('retries once on a 503, and gives up on a second one', async () => {
    sandbox.faults.add({ status: 503, path: '/v1/email/send', times: 1 })
    await expect(notifyOrderShipped('shop_key', order)).resolves.toHaveLength(2)
    expect(sandbox.outbox.list({ channel: 'email' })).toHaveLength(1) // the failed attempt sent nothing

    now += 60_000 // forced answers count against the limit too: start a fresh window
    sandbox.faults.add({ status: 503, code: 'service_unavailable', path: '/v1/email/send', times: 2 })
    await expect(notifyOrderShipped('shop_key', order)).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
    })
  })

  it('lets a bounce be tested with a magic recipient', async () => {
    const [id] = await notifyOrderShipped('shop_key', { ...order, email: 'bounce@sendbox.test', phone: undefined })
    now += 2_000
    expect(sandbox.outbox.get(id)).toMatchObject({ status: 'failed', reason: expect.stringContaining('bounced') })
  })

  it('keeps a journal of what the app sent', async () => {
    await notifyOrderShipped('shop_key', { ...order, email: 'not-an-address' }).catch(() => undefined)
    expect(sandbox.journal.list()[0]).toMatchObject({
      method: 'POST',
      path: '/v1/email/send',
      status: 400,
      error_code: 'invalid_email',
    })
  })
})
