import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type CliChild } from '../cli-child.js'

/**
 * Issue 27, N11 and issue 36, R5: wrong API keys and admin tokens are rate-limited per client — by its
 * peer address, never its Origin — so they can no longer be guessed at ~20,000 a second.
 * After 20 wrong secrets in 10 s every key and token from that client is a 429 with Retry-After
 * (a right one too: else the answer would tell a right guess). Local tools (no Origin, loopback)
 * are never counted.
 */
describe('guessing keys and the admin token', () => {
  let cli: CliChild
  beforeAll(async () => {
    cli = await startCli(['--no-ui', '--port', '0', '--admin-token', 'the-real-admin-token'])
  })
  afterAll(() => cli?.kill())

  const send = (key: string, origin?: string) =>
    fetch(`${cli.apiUrl}/subscribers`, {
      headers: { Authorization: `Bearer ${key}`, ...(origin ? { Origin: origin } : {}) },
    })

  it('locks the web pages of this machine out after 20 different wrong keys whatever their Origin (R5), right keys included', async () => {
    const statuses: number[] = []
    // Issue 36, R5: a client rotating its Origin got a fresh budget per Origin (1,999 guesses in 1.26 s).
    for (let i = 0; i < 25; i++) statuses.push((await send(`guess_${i}`, `https://evil-${i}.example`)).status)
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401))
    expect(statuses.slice(20)).toEqual(Array(5).fill(429))
    const right = await send('test_pro', 'https://yet-another.example')
    expect(right.status).toBe(429)
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await right.json()).toMatchObject({
      error: { code: 'rate_limit_exceeded', message: expect.stringMatching(/Too many wrong API keys/) },
    })
    // Wrong admin tokens from a page are refused the same way while the lockout lasts.
    const admin = await fetch(`${cli.origin}/__sandbox/health`, {
      headers: { 'X-Sendbox-Admin-Token': 'guess-admin', Origin: 'https://evil.example' },
    })
    expect(admin.status).toBe(429)
    // A local tool without an Origin is not affected and never counted.
    for (let i = 0; i < 30; i++) expect((await send(`local_${i}`)).status).toBe(401)
    expect((await send('test_pro')).status).toBe(200)
    expect(
      (await fetch(`${cli.origin}/__sandbox/health`, { headers: { 'X-Sendbox-Admin-Token': 'the-real-admin-token' } }))
        .status,
    ).toBe(200)
  })
})

describe('guessing the admin token', () => {
  let cli: CliChild
  beforeAll(async () => {
    cli = await startCli(['--no-ui', '--port', '0', '--admin-token', 'the-real-admin-token'])
  })
  afterAll(() => cli?.kill())

  it('counts different wrong admin tokens from web pages, and one wrong token sent again once', async () => {
    const health = (token: string) =>
      fetch(`${cli.origin}/__sandbox/health`, {
        headers: { 'X-Sendbox-Admin-Token': token, Origin: 'https://other-evil.example' },
      })
    for (let i = 0; i < 40; i++) expect((await health('stale-token')).status).toBe(401)
    const statuses: number[] = []
    for (let i = 0; i < 22; i++) statuses.push((await health(`guess-${i}`)).status)
    expect(statuses.slice(0, 19).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(19)).toEqual([429, 429, 429])
    expect(
      (await fetch(`${cli.origin}/__sandbox/health`, { headers: { 'X-Sendbox-Admin-Token': 'the-real-admin-token' } }))
        .status,
    ).toBe(200)
  })
})
