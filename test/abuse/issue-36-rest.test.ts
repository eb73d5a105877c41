/**
 * Issue 36, item 5, each finding re-run through the public surface: R9 the "did you mean" of an
 * unknown template among 2,000, R15 the client and a cross-origin redirect, R16 credential headers
 * in the journal, R17 template button URLs, R19 the opt-out keywords' fold and in-process input.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { createSandboxClient } from '../../src/client/index.js'
import { direct } from '../helpers.js'

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )

describe('issue 36, the rest of the list', () => {
  const servers: Server[] = []
  afterAll(() => servers.forEach((s) => s.close()))

  it('suggests known templates for an unknown one among 2,000 long names (R9)', async () => {
    const names = Array.from({ length: 2000 }, (_, i) => `tpl_${String(i).padStart(4, '0')}_${'x'.repeat(51)}`)
    const sandbox = direct({ templates: names.map((name) => ({ name, language: 'en', body: 'Hi' })) })
    for (const [typo, expected] of [
      [`tpl_1234_${'x'.repeat(50)}`, names[1234]],
      [`tql_0042_${'x'.repeat(51)}`, names[42]],
    ]) {
      const answer = await sandbox.call('POST', '/whatsapp/send', {
        to: '+14155550100',
        template: typo,
        language: 'en',
      })
      expect(answer.status).toBe(400)
      expect((await answer.json()).error.message).toContain(`Closest known: ${expected}`)
    }
    sandbox.sandbox.dispose()
  })

  it('the client refuses a redirect to another origin, so its token never goes there (R15)', async () => {
    const seen: Array<Record<string, unknown>> = []
    const elsewhere = createServer((req, res) => {
      seen.push(req.headers)
      res.end('{}')
    })
    servers.push(elsewhere)
    const target = await listen(elsewhere)
    const redirecting = createServer((req, res) => res.writeHead(302, { location: `${target}${req.url}` }).end())
    servers.push(redirecting)
    const client = createSandboxClient({ url: await listen(redirecting), adminToken: 'adm_secret_redirect_01' })
    await expect(client.outbox.list()).rejects.toMatchObject({ code: 'cross_origin_redirect' })
    expect(seen).toEqual([])
  })

  it('masks every header whose name suggests a credential in the journal (R16)', async () => {
    const sandbox = direct()
    await sandbox.call(
      'POST',
      '/sms/send',
      { to: '+14155550100', message: 'hi' },
      {
        authorization: 'Bearer test_pro',
        'content-type': 'application/json',
        'x-api-key': 'sk_live_abcdefghijklmnop',
        'x-client-secret': 'very-secret-value-123',
        'x-trace': 'visible',
      },
    )
    const [entry] = sandbox.sandbox.journal.list()
    const headers = entry.request_headers as Record<string, string>
    expect(headers['x-api-key']).not.toContain('abcdefghijklmnop')
    expect(headers['x-client-secret']).not.toContain('very-secret-value')
    expect(headers['x-trace']).toBe('visible')
    sandbox.sandbox.dispose()
  })

  it('refuses a template button URL that is not https when the templates load (R17)', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'http://shop.example/{{id}}', '{{link}}']) {
      expect(
        () =>
          createSandbox({
            templates: [{ name: 'order', language: 'en', body: 'Hi {{id}}', buttons: [{ text: 'Open', url }] }],
          }),
        url,
      ).toThrow(/must be an https:\/\/ URL/)
    }
    const ok = createSandbox({
      templates: [
        {
          name: 'order',
          language: 'en',
          body: 'Hi {{id}}',
          buttons: [{ text: 'Open', url: 'https://shop.example/orders/{{id}}' }],
        },
      ],
    })
    ok.dispose()
  })

  it('compares STOP keywords with a locale-free fold, and checks in-process input as HTTP does (R19)', () => {
    const sandbox = createSandbox()
    expect(sandbox.inbound({ channel: 'sms', key: 'test_pro', from: '+14155550123', text: 'ſtop' }).action).toBeNull()
    expect(sandbox.inbound({ channel: 'sms', key: 'test_pro', from: '+14155550123', text: ' stop ' }).action).toBe(
      'opt_out',
    )
    expect(() =>
      sandbox.inbound({ channel: 'sms', key: 'test_pro', from: '+14155550123', to: '1'.repeat(100_000), text: 'hi' }),
    ).toThrow(/`to` must be/)
    sandbox.dispose()
  })
})

describe('GET /__sandbox/opt-outs is paginated like every list (R19)', () => {
  it("answers pages of at most 100 in the lists' envelope, and the client and a team page through them", async () => {
    const team = { name: 'acme-qa', token: 'team_acme_0123456789', accounts: ['acme'] }
    const { standalone } = await import('../helpers.js')
    const server = await standalone({
      apiKeys: { acme_key: 'pro:acme', globex_key: 'pro:globex' },
      teamTokens: [team],
      adminToken: 'adm_opt_out_pages_0001',
    })
    try {
      // 250 numbers opted out of acme, 5 of globex (through the domain: the controls are rate limited per team).
      for (let i = 0; i < 250; i++)
        server.sandbox.optOuts.add({
          account: 'acme',
          number: `+1415555${String(i).padStart(4, '0')}`,
          keyword: 'STOP',
          at: new Date(0).toISOString(),
        })
      for (let i = 0; i < 5; i++)
        server.sandbox.optOuts.add({
          account: 'globex',
          number: `+1212555${String(i).padStart(4, '0')}`,
          keyword: 'STOP',
          at: new Date(0).toISOString(),
        })
      const get = async (query: string, token = 'adm_opt_out_pages_0001') => {
        const answer = await fetch(`${server.running.url}/__sandbox/opt-outs${query}`, {
          headers: { authorization: `Bearer ${token}` },
        })
        return { status: answer.status, body: await answer.json() }
      }
      const first = await get('')
      expect(first.body.data).toHaveLength(20)
      expect(first.body.pagination).toEqual({ page: 1, limit: 20, total: 255, pages: 13 })
      expect(first.body.data[0].number).toBe('+14155550000')
      const third = await get('?page=3&limit=100')
      expect(third.body.data).toHaveLength(55)
      expect(third.body.data.at(-1).number).toBe('+12125550004')
      expect((await get('?limit=101')).status).toBe(400)
      expect((await get('?account=globex')).body.pagination.total).toBe(5)
      // A team sees its own accounts only, and nothing of another's when it names it.
      expect((await get('?limit=100', team.token)).body.pagination.total).toBe(250)
      expect((await get('?account=globex', team.token)).body).toEqual({
        data: [],
        pagination: { page: 1, limit: 20, total: 0, pages: 0 },
      })
      // The client pages through all of them.
      const client = createSandboxClient({ url: server.running.url, adminToken: 'adm_opt_out_pages_0001' })
      expect(await client.optOuts.list()).toHaveLength(255)
    } finally {
      await server.close()
    }
  })
})
