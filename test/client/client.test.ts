import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { WaitTimeoutError as InProcessTimeout } from '../../src/index.js'
import {
  createSandboxClient,
  SandboxClientError,
  WaitTimeoutError,
  type SandboxClient,
} from '../../src/client/index.js'
import { startCli, type CliChild } from '../cli-child.js'
import { direct } from '../helpers.js'

/**
 * `sendbox/client` against the built CLI (`dist/bin/sendbox.js`) on an ephemeral port: every
 * control over HTTP, the same timeout text as in-process, and a clear line for a URL that is
 * not a sendbox.
 */
let cli: CliChild
let client: SandboxClient

const send = (path: string, body: unknown) =>
  fetch(`${cli.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

beforeAll(async () => {
  cli = await startCli(['--no-ui', '--port', '0', '--admin-token', 'adm_client_test_token'])
  client = createSandboxClient({ url: `${cli.origin}/`, adminToken: 'adm_client_test_token' })
})
afterAll(() => cli?.kill())
beforeEach(async () => {
  await client.reset()
  await client.clock.reset()
})

describe('sendbox/client', () => {
  it('lists, gets, deletes and clears captured messages, with text, links and codes', async () => {
    const sent = await (
      await send('/email/send', {
        to: 'ana@example.com',
        subject: 'Reset',
        html: '<p>Code 482913. <a href="https://app.test/reset?t=1">Reset</a></p>',
      })
    ).json()
    await send('/sms/send', { to: '+14155550123', message: 'Your code is 123456' })
    const list = await client.outbox.list({ channel: 'email' })
    expect(list.map((m) => m.to)).toEqual(['ana@example.com'])
    const message = await client.outbox.get(list[0].message_id)
    expect(message?.message_id).toBe(sent.message_id ?? list[0].message_id)
    expect(message).toMatchObject({ channel: 'email', links: ['https://app.test/reset?t=1'], codes: ['482913'] })
    expect(message?.status_history.length).toBeGreaterThan(0)
    expect(await client.outbox.get('msg_nope')).toBeUndefined()
    expect(await client.outbox.delete(list[0].message_id)).toBe(true)
    expect(await client.outbox.delete(list[0].message_id)).toBe(false)
    expect(await client.outbox.list()).toHaveLength(1)
    await client.outbox.clear()
    expect(await client.outbox.list()).toEqual([])
  })

  it('lists every page of a long outbox', async () => {
    await Promise.all(
      Array.from({ length: 130 }, (_, i) => send('/sms/send', { to: '+14155550123', message: `n ${i}` })),
    )
    expect(await client.outbox.list({ to: '+14155550123' })).toHaveLength(130)
  })

  it('waits for a message that arrives later, and honours since', async () => {
    await send('/sms/send', { to: '+14155550100', message: 'old 111111' })
    // `since` counts the millisecond it names: step past the old message's.
    await new Promise((resolve) => setTimeout(resolve, 5))
    const since = Date.now()
    const waiting = client.outbox.waitFor({ channel: 'sms', to: '+14155550100' }, { timeout: 5_000, since })
    setTimeout(() => void send('/sms/send', { to: '+14155550100', message: 'Your code is 222222' }), 150)
    expect((await waiting).codes).toEqual(['222222'])
  })

  it('times out with the same text as the in-process waitFor, over several long polls', async () => {
    await send('/sms/send', { to: '+14155550111', message: 'Hello there' })
    const polls: string[] = []
    const counting = createSandboxClient({
      url: cli.origin,
      adminToken: 'adm_client_test_token',
      longPollMs: 100,
      fetch: (input, init) => (polls.push(String(input)), fetch(input, init)),
    })
    const error = await counting.outbox
      .waitFor({ channel: 'sms', to: '+14155550999' }, { timeout: 300 })
      .catch((e: unknown) => e)
    expect(polls.filter((url) => url.includes('/messages/wait?')).length).toBeGreaterThanOrEqual(3)
    expect(error).toBeInstanceOf(WaitTimeoutError)
    expect(error).toBeInstanceOf(InProcessTimeout) // one class: one instanceof for both
    const local = direct()
    await local.call('POST', '/sms/send', { to: '+14155550111', message: 'Hello there' })
    const inProcess = await local.sandbox.outbox
      .waitFor({ channel: 'sms', to: '+14155550999' }, { timeout: 300 })
      .catch((e: unknown) => e)
    local.dispose()
    expect((error as Error).message).toBe((inProcess as Error).message)
    expect((error as Error).message).toMatch(
      /^no SMS to \+14155550999 in 300 ms; the last SMS went to \+14155550111 "Hello there" \(/,
    )
  })

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController()
    const waiting = client.outbox.waitFor({ to: 'nobody@example.com' }, { timeout: 30_000, signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stop')), 100)
    await expect(waiting).rejects.toThrow('stop')
    expect((await client.health()).waiters).toBe(0)
  })

  it('adds, lists and clears faults; reads the journal', async () => {
    const fault = await client.faults.add({ status: 503, path: '/v1/sms/send', times: 1 })
    expect(fault).toMatchObject({ status: 503, remaining: 1 })
    expect(await client.faults.list()).toHaveLength(1)
    expect((await send('/sms/send', { to: '+14155550123', message: 'x' })).status).toBe(503)
    await client.faults.clear()
    expect(await client.faults.list()).toEqual([])
    const [entry] = await client.requests.list({ limit: 1 })
    expect(entry).toMatchObject({ method: 'POST', path: '/v1/sms/send', status: 503 })
    await expect(client.faults.add({ status: 200 })).rejects.toMatchObject({ status: 400, name: 'SandboxClientError' })
  })

  it('moves, freezes and resets the clock; resets one scope', async () => {
    const frozen = await client.clock.freeze()
    expect(frozen.frozen).toBe(true)
    const moved = await client.clock.advance(3_600_000)
    expect(Date.parse(moved.now) - Date.parse(frozen.now)).toBe(3_600_000)
    expect((await client.clock.state()).offset_ms).toBeGreaterThan(3_500_000)
    expect((await client.clock.reset()).frozen).toBe(false)
    expect(await client.reset('messages')).toEqual({ ok: true, scope: 'messages' })
  })

  it('says the sandbox refused it without the admin token', async () => {
    const bare = createSandboxClient({ url: cli.origin })
    await expect(bare.outbox.list()).rejects.toThrow(
      `${cli.origin} is a sendbox but refused the client: The sandbox controls need the admin token`,
    )
  })
})

describe('sendbox/client with a team token', () => {
  it("sees and waits for its own account's messages only; the admin token's controls are refused", async () => {
    const shared = await startCli([
      '--no-ui',
      '--port',
      '0',
      '--api-key',
      'key_a:pro:acct_a',
      '--api-key',
      'key_b:pro:acct_b',
      '--admin-token',
      'adm_client_team_0001',
      '--team-token',
      'qa:team_client_0123456789:acct_b',
    ])
    try {
      const sms = (key: string, to: string) =>
        fetch(`${shared.apiUrl}/sms/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ to, message: 'hi' }),
        })
      expect((await sms('key_a', '+14155550123')).status).toBe(200)
      expect((await sms('key_b', '+14155550124')).status).toBe(200)
      const team = createSandboxClient({ url: shared.origin, teamToken: 'team_client_0123456789' })
      const admin = createSandboxClient({ url: shared.origin, adminToken: 'adm_client_team_0001' })
      expect((await team.outbox.list()).map((m) => m.to)).toEqual(['+14155550124'])
      await expect(team.outbox.waitFor({ to: '+14155550123' }, { timeout: 200 })).rejects.toBeInstanceOf(
        WaitTimeoutError,
      )
      await expect(team.clock.advance(1000)).rejects.toMatchObject({ status: 403, code: 'forbidden' })
      expect((await admin.outbox.list()).length).toBe(2)
    } finally {
      shared.kill()
    }
  })
})

describe('a URL that is not a sendbox', () => {
  let other: Server
  let url: string
  beforeAll(async () => {
    other = createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>'),
    )
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(other.address() as { port: number }).port}`
  })
  afterAll(() => new Promise<void>((done) => other.close(() => done())))

  it('fails the first call with one line naming the URL and what answered', async () => {
    const error = await createSandboxClient({ url })
      .outbox.list()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SandboxClientError)
    expect((error as Error).message).toBe(
      `${url} is not a sendbox (or one too old for this client): GET /__sandbox/health answered 404 text/html <html><body>Not Found</body></html>, not { ok: true, version }.`,
    )
  })

  it('names a URL where nothing listens', async () => {
    await expect(createSandboxClient({ url: 'http://127.0.0.1:9' }).outbox.list()).rejects.toThrow(
      /^http:\/\/127\.0\.0\.1:9 did not answer/,
    )
  })

  it('refuses a URL that is not http(s) at once', () => {
    expect(() => createSandboxClient({ url: 'localhost:4010' })).toThrow(/url must be a sandbox's http\(s\) origin/)
  })
})
