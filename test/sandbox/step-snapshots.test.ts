import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import type { CapturedMessage } from '../../src/index.js'
import { fakeClock, inProcess } from '../helpers.js'

// A lifecycle step changes a message nobody was handed in place (issue 37: a copy per step was
// an allocation, a promotion and old-generation garbage per send at the bench's rates), and
// copies one that someone may hold: what a test read stays as it was read.
const clock = fakeClock()
const api = inProcess({ now: clock.now, deliveryMs: 1_000 })
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

const send = async (to: string) =>
  (await (await api.call('POST', '/sms/send', { to, message: 'Your code is 123456' })).json()).message_id as string

describe('a message read before its lifecycle step', () => {
  const reads: Array<[string, (id: string) => CapturedMessage | Promise<CapturedMessage>]> = [
    ['get', (id) => api.sandbox.outbox.get(id)!],
    ['list', () => api.sandbox.outbox.list()[0]],
    ['snapshot', () => api.sandbox.outbox.snapshot()[0]],
    ['waitFor', () => api.sandbox.outbox.waitFor({ to: '+14155550123' })],
    [
      'waitFor, captured while waiting',
      () => {
        const waited = api.sandbox.outbox.waitFor({ to: '+14155550199' })
        void send('+14155550199')
        return waited
      },
    ],
  ]
  for (const [how, read] of reads) {
    it(`keeps what it was when read (${how}), while a new read shows the step`, async () => {
      const id = how.includes('while waiting') ? '' : await send('+14155550123')
      const held = await read(id)
      expect(held.status).toBe('queued')
      clock.advance(1_000)
      // A read applies the due step (the clock's move may be told later), then the held one is looked at.
      const now = api.sandbox.outbox.get(held.message_id)!
      expect(held.status).toBe('queued')
      expect(held.status_history).toHaveLength(1)
      expect(now.status).toBe('sent')
      expect(now.status_history.map((h) => h.status)).toEqual(['queued', 'sent'])
      expect(now).not.toBe(held)
    })
  }

  it('one an event listener was told of keeps what it was told', async () => {
    const told: CapturedMessage[] = []
    const off = api.sandbox.outbox.onCapture((message) => told.push(message))
    try {
      await send('+14155550123')
      clock.advance(2_000)
      expect(api.sandbox.outbox.get(told[0].message_id)!.status).toBe('delivered')
      expect(told[0].status).toBe('queued')
    } finally {
      off()
    }
  })

  it('a message nobody read takes both steps and reads back whole, in order', async () => {
    const start = clock.now()
    const ids = [await send('+14155550123'), await send('+14155550124')]
    clock.advance(2_000)
    for (const id of ids) {
      const message = api.sandbox.outbox.get(id)!
      expect(message.status).toBe('delivered')
      expect(message.status_history).toEqual([
        { status: 'queued', at: new Date(start).toISOString() },
        { status: 'sent', at: new Date(start + 1_000).toISOString() },
        { status: 'delivered', at: new Date(start + 2_000).toISOString() },
      ])
      expect(message.codes).toEqual(['123456'])
    }
  })
})
