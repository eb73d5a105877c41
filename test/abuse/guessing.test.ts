import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type CliChild } from '../cli-child.js'

/**
 * Issue 27, N11: wrong API keys and admin tokens are rate-limited per client — a web page by its
 * origin, a remote client by its address — so they can no longer be guessed at ~20,000 a second.
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
    fetch(`${cli.apiUrl}/subscribers`, { headers: { Authorization: `Bearer ${key}`, ...(origin ? { Origin: origin } : {}) } })

  it('locks a web origin out after 20 wrong keys, right keys included, and leaves other clients alone', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 25; i++) statuses.push((await send(`guess_${i}`, 'https://evil.example')).status)
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401))
    expect(statuses.slice(20)).toEqual(Array(5).fill(429))
    const right = await send('test_pro', 'https://evil.example')
    expect(right.status).toBe(429)
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await right.json()).toMatchObject({ error: { code: 'rate_limit_exceeded', message: expect.stringMatching(/Too many wrong API keys/) } })
    // Another origin, and a local tool without one, are not affected.
    expect((await send('test_pro', 'http://localhost:3000')).status).toBe(200)
    for (let i = 0; i < 30; i++) expect((await send(`local_${i}`)).status).toBe(401)
    expect((await send('test_pro')).status).toBe(200)
  })

  it('counts wrong admin tokens the same way', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 22; i++) statuses.push((await fetch(`${cli.origin}/__sandbox/health`, { headers: { 'X-Sendbox-Admin-Token': `guess-${i}`, Origin: 'https://other-evil.example' } })).status)
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(20)).toEqual([429, 429])
    expect((await fetch(`${cli.origin}/__sandbox/health`, { headers: { 'X-Sendbox-Admin-Token': 'the-real-admin-token' } })).status).toBe(200)
  })
})
