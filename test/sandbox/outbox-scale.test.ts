import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { auth, inProcess, ORIGIN } from '../helpers.js'

// Issue 36 R1 and issue 37 item 3: the caps evict the flooding account's own oldest; pages,
// counts and waits answer as a full filter would, from the indexes.
const api = inProcess({ maxMessages: 20, limits: { starter: 1_000_000, pro: 1_000_000 } })
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

const sms = (key: string, to: string, message = 'Your code is 1234') =>
  api.call('POST', '/sms/send', { to, message }, auth(key))
const page = async (query: string) => (await fetch(`${ORIGIN}/__sandbox/messages?${query}`)).json()

describe('outbox caps, shared fairly between accounts', () => {
  it("a flood from one account evicts its own oldest, never the other account's below its share", async () => {
    for (let i = 0; i < 5; i++) await sms('test_pro', `+1415555010${i}`, `pro ${i}`)
    for (let i = 0; i < 40; i++) await sms('test_starter', '+14155550999', `flood ${i}`)
    const pro = api.sandbox.accountOf('test_pro')
    const starter = api.sandbox.accountOf('test_starter')
    expect(api.sandbox.outbox.size).toBe(20)
    expect(api.sandbox.outbox.list({ account: pro }).map((m) => m.text)).toEqual([
      'pro 4',
      'pro 3',
      'pro 2',
      'pro 1',
      'pro 0',
    ])
    // The flooder keeps its newest 15: its own oldest went first.
    expect(api.sandbox.outbox.list({ account: starter }).map((m) => m.text)).toEqual(
      Array.from({ length: 15 }, (_, i) => `flood ${39 - i}`),
    )
    expect(api.sandbox.outbox.evicted).toBe(25)
  })

  it('with one account the oldest message goes first, as before', async () => {
    for (let i = 0; i < 25; i++) await sms('test_pro', '+14155550100', `m ${i}`)
    expect(api.sandbox.outbox.list().at(-1)!.text).toBe('m 5')
  })
})

describe('outbox pages and counts from the indexes', () => {
  it('pages and totals match a filter over everything, for every narrowing filter', async () => {
    for (let i = 0; i < 18; i++)
      await sms(
        i % 3 === 0 ? 'test_starter' : 'test_pro',
        `+1415555010${i % 4}`,
        `code ${i % 2 === 0 ? 'even' : 'odd'} ${i}`,
      )
    await api.call('POST', '/email/send', { to: 'Ana@Example.com', subject: 'Hello', html: '<p>Hi</p>' })
    const ids = api.sandbox.outbox.list().map((m) => m.message_id)
    api.sandbox.outbox.delete(ids[3])
    const all = api.sandbox.outbox.list()
    const pro = api.sandbox.accountOf('test_pro')
    const cases: Array<[string, (m: (typeof all)[number]) => boolean]> = [
      ['', () => true],
      ['channel=sms', (m) => m.channel === 'sms'],
      ['to=%2B14155550101', (m) => m.to === '+14155550101'],
      ['to=ana@example.com', (m) => m.to.toLowerCase() === 'ana@example.com'],
      [`account=${pro}`, (m) => m.account === pro],
      [`account=${pro}&to=%2B14155550102&channel=sms`, (m) => m.account === pro && m.to === '+14155550102'],
      ['q=even', (m) => m.channel === 'sms' && m.text.includes('even')],
      ['channel=email&q=hello', (m) => m.channel === 'email'],
      ['to=%2B19999999999', () => false],
    ]
    for (const [query, want] of cases) {
      const expected = all.filter(want)
      for (const p of [1, 2, 3]) {
        const body = await page(`${query}&limit=4&page=${p}`)
        expect(body.pagination.total, query).toBe(expected.length)
        expect(
          body.data.map((m: { message_id: string }) => m.message_id),
          `${query} page ${p}`,
        ).toEqual(expected.slice((p - 1) * 4, p * 4).map((m) => m.message_id))
      }
    }
  })

  it('a thousand waits on one filter all resolve with the one message that matches', async () => {
    const waits = Array.from({ length: 1_000 }, () =>
      api.sandbox.outbox.waitFor({ q: `${'a'.repeat(50)}b` }, { timeout: 2_000 }),
    )
    const other = api.sandbox.outbox.waitFor({ q: 'zzz' }, { timeout: 50 })
    await sms('test_pro', '+14155550100', 'a'.repeat(60))
    await sms('test_pro', '+14155550100', `${'a'.repeat(60)}b`)
    const found = await Promise.all(waits)
    expect(new Set(found.map((m) => m.message_id)).size).toBe(1)
    expect(found[0].text).toBe(`${'a'.repeat(60)}b`)
    await expect(other).rejects.toThrow(/no message matching "zzz"/)
    expect(api.sandbox.outbox.waiting).toBe(0)
  })
})
