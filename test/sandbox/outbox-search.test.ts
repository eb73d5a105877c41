import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { emailChannel } from '../../src/domain/channels/index.js'
import { loadHtmlTools } from '../../src/domain/extract.js'

// Issue 37 item 3: a q search skips whole blocks of 512 messages whose joined text lacks a word;
// what it finds must be what a scan of every message finds.
const big = { sandbox: createSandbox({ maxMessages: 1_000 }) }
afterAll(() => big.sandbox.dispose())

describe('q over a large outbox (search blocks of 512 messages)', () => {
  it('finds what a scan finds, before and after deletions and evictions', async () => {
    await big.sandbox.ready
    // Captured here without the send route, which loads the email's HTML tools before the first email: load them as it does.
    await loadHtmlTools()
    const key = big.sandbox.keys[0]
    const send = (i: number) => {
      const raw = { to: 'ana@example.com', subject: 'Hi', html: `<p>note ${i}${i % 97 === 0 ? ' zebracorn' : ''}</p>` }
      big.sandbox.outbox.capture(emailChannel.capture(key, raw as never, raw, () => 1))
    }
    for (let i = 0; i < 1_300; i++) send(i)
    const check = (q: string, page = 1) => {
      const words = q.toLowerCase().split(' ').filter(Boolean)
      const expected = big.sandbox.outbox
        .list()
        .filter((m) => words.every((w) => `${m.to}\n${m.text}`.toLowerCase().includes(w)))
      const found = big.sandbox.outbox.page({ q }, undefined, page, 5)
      expect(found.total, q).toBe(expected.length)
      expect(
        found.data.map((m) => m.message_id),
        q,
      ).toEqual(expected.slice((page - 1) * 5, page * 5).map((m) => m.message_id))
    }
    check('zebracorn')
    check('note 12')
    check('absent')
    // The scan follows the rarest word; the order of words, a common first word and a later page change nothing.
    check('12 note')
    check('note', 3)
    check('NOTE 7 ana@', 2)
    check('1')
    // A word never spans two messages' texts (the join's separator is a newline).
    check('1\u0000hi')
    // A filter with its own list (the recipient) reads each message's text from its block's join.
    expect(big.sandbox.outbox.page({ to: 'ana@example.com', q: 'note 99' }, undefined, 1, 50).total).toBe(
      big.sandbox.outbox.list({ q: 'note 99' }).length,
    )
    for (const m of big.sandbox.outbox.list({ q: 'zebracorn' }).slice(0, 4)) big.sandbox.outbox.delete(m.message_id)
    for (let i = 1_300; i < 2_400; i++) send(i)
    check('zebracorn')
    check('note 23')
    const oldest = big.sandbox.outbox.list({ q: 'zebracorn' }).at(-1)!
    await expect(
      big.sandbox.outbox.waitFor({ q: `zebracorn ${oldest.text.split(' ')[1]}` }, { timeout: 10 }),
    ).resolves.toMatchObject({ message_id: oldest.message_id })
  })
})
