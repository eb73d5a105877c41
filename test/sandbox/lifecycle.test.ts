import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { MAGIC_RECIPIENTS } from '../../src/index.js'
import { ERROR_CODES } from '../../src/contract/error.js'
import { auth, direct, fakeClock, inProcess } from '../helpers.js'

const clock = fakeClock()
const api = inProcess({ now: clock.now, deliveryMs: 1_000 })
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

const send = async (channel: 'email' | 'sms' | 'whatsapp', to: string) => {
  const body =
    channel === 'email'
      ? { to, subject: 'Hi', html: '<p>Hi</p>' }
      : channel === 'sms'
        ? { to, message: 'Hi' }
        : { to, template: 'hello', language: 'en' }
  return api.call('POST', `/${channel}/send`, body)
}

describe('delivery lifecycle, driven by the injected clock', () => {
  it('moves queued → sent → delivered one step per deliveryMs, without sleeping', async () => {
    const start = clock.now()
    const { message_id } = await (await send('email', 'ana@example.com')).json()
    expect(api.sandbox.outbox.get(message_id)!.status).toBe('queued')
    clock.advance(999)
    expect(api.sandbox.outbox.get(message_id)!.status).toBe('queued')
    clock.advance(1)
    expect(api.sandbox.outbox.get(message_id)!.status).toBe('sent')
    clock.advance(1_000)
    const done = api.sandbox.outbox.get(message_id)!
    expect(done.status).toBe('delivered')
    expect(done.status_history).toEqual([
      { status: 'queued', at: new Date(start).toISOString() },
      { status: 'sent', at: new Date(start + 1_000).toISOString() },
      { status: 'delivered', at: new Date(start + 2_000).toISOString() },
    ])
  })

  it('applies steps at their due time even when read much later', async () => {
    const start = clock.now()
    const a = (await (await send('sms', '+14155550123')).json()).message_id
    clock.advance(1_500)
    const b = (await (await send('sms', '+14155550124')).json()).message_id
    clock.advance(60_000)
    const [second, first] = api.sandbox.outbox.list()
    expect(first.message_id).toBe(a)
    expect(second.message_id).toBe(b)
    expect(first.status_history.map((h) => h.at)).toEqual(
      [0, 1_000, 2_000].map((d) => new Date(start + d).toISOString()),
    )
    expect(second.status_history.map((h) => h.at)).toEqual(
      [1_500, 2_500, 3_500].map((d) => new Date(start + d).toISOString()),
    )
  })

  it('fails magic recipients with a reason after they were sent', async () => {
    const email = (await (await send('email', 'bounce@sendbox.test')).json()).message_id
    const phone = (await (await send('whatsapp', '+15005550001')).json()).message_id
    clock.advance(2_000)
    expect(api.sandbox.outbox.get(email)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/bounced/) })
    expect(api.sandbox.outbox.get(email)!.status_history.map((h) => h.status)).toEqual(['queued', 'sent', 'failed'])
    expect(api.sandbox.outbox.get(phone)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/unreachable/),
    })
  })

  it('is instant with deliveryMs 0', async () => {
    const instant = direct({ deliveryMs: 0, now: clock.now })
    const res = await instant.call('POST', '/sms/send', { to: '+15005550002', message: 'hi' })
    expect((await res.json()).status).toBe('queued') // the real API's answer never changes
    const [message] = instant.sandbox.outbox.list()
    expect(message.status).toBe('failed')
    expect(message.status_history.map((h) => h.status)).toEqual(['queued', 'sent', 'failed'])
    instant.dispose()
  })

  it('filters by status as it moves', async () => {
    await send('email', 'ana@example.com')
    await send('email', 'bounce@sendbox.test')
    clock.advance(2_000)
    expect(api.sandbox.outbox.list({ status: 'delivered' })).toHaveLength(1)
    expect(api.sandbox.outbox.list({ status: 'failed' })).toHaveLength(1)
  })
})

describe('magic recipients', () => {
  for (const magic of MAGIC_RECIPIENTS) {
    const channels = magic.channel === 'email' ? (['email'] as const) : (['sms', 'whatsapp'] as const)
    for (const channel of channels) {
      it(`${channel} to ${magic.recipient}: ${magic.description}`, async () => {
        const res = await send(channel, magic.recipient)
        if (magic.outcome.kind === 'reject') {
          expect(res.status).toBe(ERROR_CODES[magic.outcome.code].status)
          expect((await res.json()).error.code).toBe(magic.outcome.code)
          if (ERROR_CODES[magic.outcome.code].status === 429)
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
          expect(api.sandbox.outbox.list()).toHaveLength(0)
          return
        }
        expect(res.status).toBe(200)
        const { message_id } = await res.json()
        clock.advance(2_000)
        const message = api.sandbox.outbox.get(message_id)!
        expect(message.status).toBe(magic.outcome.kind)
        if (magic.outcome.kind === 'failed') expect(message.reason).toBe(magic.outcome.reason)
      })
    }
  }

  it('has at least one email and one phone for every outcome', () => {
    for (const channel of ['email', 'phone'] as const) {
      const outcomes = MAGIC_RECIPIENTS.filter((m) => m.channel === channel).map((m) =>
        m.outcome.kind === 'reject' ? ERROR_CODES[m.outcome.code].status : m.outcome.kind,
      )
      expect(outcomes).toEqual(expect.arrayContaining(['delivered', 'failed', 400, 429, 500]))
    }
  })

  it('counts a forced magic answer against the limit like any answer', async () => {
    const res = await api.call(
      'POST',
      '/email/send',
      { to: 'error@sendbox.test', subject: 'x', html: 'x' },
      auth('test_starter'),
    )
    expect(res.status).toBe(500)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99')
  })
})
