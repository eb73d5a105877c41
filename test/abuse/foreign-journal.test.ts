import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type CliChild } from '../cli-child.js'

/**
 * Issue 27, N10: a page on another site cannot evict the request journal with keyless requests —
 * unauthenticated requests from a web origin are journaled at most once a second per origin, the
 * next admitted one saying how many were left out; authenticated requests and requests without
 * an Origin (curl, test code) are journaled as before.
 */
describe('the journal under a flood of keyless requests from a foreign page', () => {
  let cli: CliChild
  beforeAll(async () => {
    cli = await startCli(['--no-ui', '--port', '0', '--max-requests', '50'])
  })
  afterAll(() => cli?.kill())

  type Entry = { path: string; status: number; error_message: string | null }
  // After the flood, undici may hand this read a pooled socket the server has just closed ("fetch
  // failed" at load 15): the journal's content is what is tested here, so a read is tried twice.
  const journal = async (): Promise<Entry[]> => {
    const read = async () =>
      ((await (await fetch(`${cli.origin}/__sandbox/requests?limit=100`)).json()) as { data: Entry[] }).data
    return read().catch(read)
  }

  it('keeps what was there, journals the flood once a second, and says how much it left out', async () => {
    for (let i = 0; i < 5; i++)
      await fetch(`${cli.apiUrl}/subscribers`, { headers: { Authorization: 'Bearer test_pro' } })
    const flood = Array.from({ length: 300 }, () =>
      fetch(`${cli.apiUrl}/email/send`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', 'Content-Type': 'text/plain' },
        body: 'x',
      }).then((r) => r.status),
    )
    expect(new Set(await Promise.all(flood))).toEqual(new Set([401]))
    let entries = await journal()
    expect(entries.filter((e) => e.path === '/v1/subscribers' && e.status === 200)).toHaveLength(5)
    expect(entries.filter((e) => e.path === '/v1/email/send').length).toBeLessThanOrEqual(3)

    await new Promise((resolve) => setTimeout(resolve, 1_100))
    await fetch(`${cli.apiUrl}/email/send`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'text/plain' },
      body: 'x',
    })
    entries = await journal()
    expect(entries[0].error_message).toMatch(
      /\d+ more unauthenticated requests from https:\/\/evil\.example were not journaled/,
    )

    // Without an Origin (curl, test code), every keyless request is journaled as before.
    for (let i = 0; i < 3; i++) await fetch(`${cli.apiUrl}/email/send`, { method: 'POST' })
    expect((await journal()).slice(0, 3).every((e) => e.status === 401)).toBe(true)
  })
})
