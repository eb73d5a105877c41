import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JOURNAL_BODY_LIMIT, type JournalEntry } from '../../src/contract/journal.js'
import { standalone } from '../helpers.js'

/**
 * A request's body as its journal entry shows it, whichever way the guard read it: the text the
 * JSON parse decoded (kept, not decoded again), or the bytes decoded for the journal when the
 * parse never decoded them (a wrong content type, bytes that are not UTF-8) or the body is longer
 * than the journal keeps.
 */
describe('the journal keeps a body as sent', () => {
  let env: Awaited<ReturnType<typeof standalone>>
  beforeAll(async () => {
    env = await standalone({ apiKeys: { key_body: 'enterprise' }, limits: { enterprise: 1_000_000 } })
  })
  afterAll(() => env?.close())

  async function journaled(
    body: Uint8Array<ArrayBuffer> | string,
    contentType = 'application/json',
  ): Promise<JournalEntry> {
    const answer = await fetch(`${env.base}/email/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer key_body', 'content-type': contentType },
      body,
    })
    await answer.arrayBuffer()
    const entry = env.sandbox.journal.list().find((e) => e.path === '/v1/email/send')
    expect(entry).toBeDefined()
    return entry!
  }

  const cases: Array<[string, Uint8Array<ArrayBuffer> | string, string | null, number, string?]> = [
    ['a valid send', JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<p>Olá, Zoë 🚀</p>' }), null, 200],
    ['JSON with a trailing comma', '{"to": "ana@example.com",}', null, 400],
    ['a byte-order mark before the JSON', '\uFEFF{"to":"ana@example.com","subject":"x","html":"<p>x</p>"}', null, 200],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), '{"\uFFFD\uFFFD"}', 400],
    ['a text body', 'to=ana@example.com', null, 400, 'text/plain'],
  ]
  for (const [name, body, shown, status, type] of cases) {
    it(`shows ${name}`, async () => {
      const entry = await journaled(body, type)
      expect(entry.status).toBe(status)
      const expected = shown ?? (typeof body === 'string' ? body.replace(/^\uFEFF/, '') : '')
      expect(entry.request_body).toBe(expected)
    })
  }

  it('cuts a body longer than the journal keeps, decoding only what it keeps', async () => {
    const html = `<p>${'é'.repeat(JOURNAL_BODY_LIMIT * 2)}</p>`
    const text = JSON.stringify({ to: 'ana@example.com', subject: 'long', html })
    const entry = await journaled(text)
    expect(entry.status).toBe(200)
    expect(entry.request_body).toBe(`${text.slice(0, JOURNAL_BODY_LIMIT)}…`)
  })
})
