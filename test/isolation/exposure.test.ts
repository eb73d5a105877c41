/**
 * Exposure: API keys never appear in full in the journal, the outbox, any /__sandbox answer, an
 * error message or the request log; the server binds loopback by default, warns when bound
 * elsewhere (and then requires the admin token for /__sandbox); --admin-token protects /__sandbox.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { startServer } from '../../src/transports/http-server.js'
import { auth, inProcess } from '../helpers.js'
import { startCli, type CliChild } from '../cli-child.js'

const SECRET = 'sk_live_4f9a8b7c6d5e4f3a2b1c'
const WRONG = 'sk_live_0000111122223333xyz'

describe('keys are masked everywhere the sandbox shows them', () => {
  let sb: ReturnType<typeof inProcess>
  beforeAll(() => {
    sb = inProcess({ apiKeys: { [SECRET]: 'pro' }, deliveryMs: 0 })
  })
  afterAll(() => sb.dispose())

  it('journal, outbox, every /__sandbox answer and 401 messages hold no full key', async () => {
    const key = auth(SECRET)
    const sent = await (
      await sb.call('POST', '/email/send', { to: 'ana@example.com', subject: 'Hi', html: '<p>x</p>' }, key)
    ).json()
    await sb.call('POST', '/sms/send', { to: '+14155550123', message: 'hi' }, key)
    await sb.call('POST', '/whatsapp/send', { to: '+14155550123', template: 'order_update', language: 'en' }, key)
    await sb.call('POST', '/subscribers', { email: 'ana@example.com' }, key)
    await sb.call('POST', '/email/send', { to: 'bad' }, key)
    const refused = await sb.call('GET', '/subscribers', undefined, auth(WRONG))
    expect(refused.status).toBe(401)
    const refusedText = await refused.text()
    expect(refusedText).not.toContain(WRONG)
    const origin = new URL(sb.base).origin
    const texts = [refusedText]
    for (const path of [
      '/__sandbox/messages?limit=100',
      `/__sandbox/messages/${sent.message_id}`,
      '/__sandbox/requests?limit=100',
      '/__sandbox/health',
      '/__sandbox/faults',
      '/__sandbox/openapi.json',
    ]) {
      const response = await fetch(`${origin}${path}`)
      expect(response.status, path).toBe(200)
      texts.push(await response.text())
    }
    texts.push(
      JSON.stringify(sb.sandbox.journal.list()),
      JSON.stringify(sb.sandbox.outbox.list()),
      JSON.stringify(sb.sandbox.outbox.snapshot()),
      JSON.stringify(sb.sandbox.journal.snapshot()),
    )
    for (const text of texts) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(WRONG)
      // Nor a long enough piece of one to be useful.
      expect(text).not.toContain(SECRET.slice(4, 16))
      expect(text).not.toContain(WRONG.slice(4, 16))
    }
    const journal = sb.sandbox.journal.list()
    expect(journal.length).toBeGreaterThanOrEqual(6)
    for (const entry of journal) {
      if (entry.status === 401) expect(entry.key === null || entry.key.includes('…')).toBe(true)
      else expect(entry.key).toMatch(/…/)
    }
    for (const message of sb.sandbox.outbox.list()) expect(message.key).toMatch(/…/)
  })
})

describe('binding and the admin token', () => {
  const children: CliChild[] = []
  afterEach(async () => {
    for (const cli of children.splice(0)) {
      cli.child.kill('SIGTERM')
      await Promise.race([cli.exited, new Promise((r) => setTimeout(r, 3_000))])
      cli.kill()
    }
  })

  it('startServer binds 127.0.0.1 unless told otherwise', async () => {
    const sandbox = createSandbox()
    const running = await startServer(sandbox, { port: 0 })
    try {
      expect((running.server.address() as { address: string }).address).toBe('127.0.0.1')
    } finally {
      await running.close()
      sandbox.dispose()
    }
  })

  it('the CLI binds loopback by default, without a warning, and its request log holds no key', async () => {
    const cli = await startCli(['--no-ui', '--port', '0', '--api-key', `${SECRET}:pro`])
    children.push(cli)
    expect(cli.stdout()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/)
    expect(cli.stderr()).not.toMatch(/warning/i)
    const banner = cli.stdout()
    expect(banner).not.toContain(SECRET)
    expect((await fetch(`${cli.apiUrl}/subscribers`, { headers: auth(SECRET) })).status).toBe(200)
    expect((await fetch(`${cli.apiUrl}/subscribers`, { headers: auth(WRONG) })).status).toBe(401)
    expect(
      (await fetch(`${cli.apiUrl}/email/send`, { method: 'POST', headers: auth(SECRET), body: '{"to":"x"}' })).status,
    ).toBe(400)
    expect((await fetch(`${cli.origin}/__sandbox/health`)).status).toBe(200)
    await new Promise((r) => setTimeout(r, 100))
    const log = cli.stdout().slice(banner.length)
    expect(log.trim().split('\n').length).toBeGreaterThanOrEqual(4)
    expect(log).not.toContain(SECRET)
    expect(log).not.toContain(WRONG)
    expect(cli.stderr()).not.toContain(SECRET)
  })

  it('bound to 0.0.0.0 it warns on stderr and /__sandbox needs the generated admin token', async () => {
    const cli = await startCli(['--no-ui', '--host', '0.0.0.0', '--port', '0'])
    children.push(cli)
    expect(cli.stderr()).toMatch(/warning/i)
    const token = /admin token (\S+)/.exec(cli.stderr())?.[1]
    expect(token, cli.stderr()).toBeTruthy()
    expect((await fetch(`${cli.origin}/__sandbox/health`)).status).toBe(401)
    expect(
      (await fetch(`${cli.origin}/__sandbox/messages`, { headers: { authorization: 'Bearer test_pro' } })).status,
    ).toBe(401)
    expect(
      (await fetch(`${cli.origin}/__sandbox/health`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200)
    expect((await fetch(`${cli.origin}/__sandbox/reset`, { method: 'POST' })).status).toBe(401)
    // The API itself still answers to API keys.
    expect((await fetch(`${cli.apiUrl}/subscribers`, { headers: auth() })).status).toBe(200)
  })

  it('--admin-token protects /__sandbox on loopback too', async () => {
    const cli = await startCli(['--no-ui', '--port', '0', '--admin-token', 'adm_s3cret_token'])
    children.push(cli)
    expect(cli.stderr()).not.toMatch(/warning/i)
    for (const path of [
      '/__sandbox/health',
      '/__sandbox/messages',
      '/__sandbox/requests',
      '/__sandbox/faults',
      '/__sandbox/nothing',
    ]) {
      expect((await fetch(`${cli.origin}${path}`)).status, path).toBe(401)
      expect(
        (await fetch(`${cli.origin}${path}`, { headers: { authorization: 'Bearer adm_s3cret_tokex' } })).status,
        path,
      ).toBe(401)
    }
    expect(
      (
        await fetch(`${cli.origin}/__sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"status":500}',
        })
      ).status,
    ).toBe(401)
    expect(
      (await fetch(`${cli.origin}/__sandbox/health`, { headers: { authorization: 'Bearer adm_s3cret_token' } })).status,
    ).toBe(200)
    expect(
      (await fetch(`${cli.origin}/__sandbox/health`, { headers: { 'x-sendbox-admin-token': 'adm_s3cret_token' } }))
        .status,
    ).toBe(200)
    // No fault slipped in through the refused POST.
    expect((await fetch(`${cli.apiUrl}/subscribers`, { headers: auth() })).status).toBe(200)
  })
})
