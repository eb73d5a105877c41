import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkReportSchema, type CheckReport } from '../../src/contract/checks.js'
import { auth, standalone } from '../helpers.js'
import { BAD_EMAIL } from './fixtures.js'

describe('GET /__sandbox/messages/{id}/checks on the standalone server', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  const send = async (channel: string, body: unknown, key = 'test_pro') => {
    const answer = await fetch(`${server.base}/${channel}/send`, {
      method: 'POST',
      headers: auth(key),
      body: JSON.stringify(body),
    })
    expect(answer.status).toBe(200)
    return ((await answer.json()) as { message_id: string }).message_id
  }
  const checks = async (id: string, query = '', headers: Record<string, string> = {}) =>
    fetch(`${server.running.url}/__sandbox/messages/${id}/checks${query}`, { headers })

  beforeAll(async () => {
    server = await standalone({
      apiKeys: ['test_pro:pro:acme', 'test_starter:starter:globex'],
      teamTokens: [{ name: 'acme', token: 'team_acme_token_0001', accounts: ['acme'] }],
      adminToken: 'admin_token_0001',
    })
  })
  afterAll(() => server.close())
  const admin = { authorization: 'Bearer admin_token_0001' }

  it('gives the bad email one check for each problem, with Outlook named for flex', async () => {
    const id = await send('email', { to: 'ana@example.com', subject: 'Hi', html: BAD_EMAIL })
    const answer = await checks(id, '', admin)
    expect(answer.status).toBe(200)
    const report = checkReportSchema.parse(await answer.json())
    const ids = report.checks.map((c) => c.id)
    for (const rule of [
      'compat.css-display-flex',
      'images.missing-alt',
      'links.javascript',
      'links.http',
      'links.text-mismatch',
    ])
      expect(ids.filter((i) => i === rule)).toHaveLength(1)
    expect(report.checks.find((c) => c.id === 'compat.css-display-flex')!.clients).toContain('outlook.windows')
    expect(report.checks.find((c) => c.id === 'links.javascript')).toMatchObject({
      severity: 'error',
      location: { line: 4, column: 1 },
    })
    expect(report.checks.filter((c) => c.category === 'spam').map((c) => c.severity)).toEqual(['info'])
    expect(report.counts.error).toBeGreaterThanOrEqual(1)
    expect(report.score).toBeLessThan(100)
    // Kept: the second answer is the same report.
    expect(await (await checks(id, '', admin)).json()).toEqual(report)
    const refreshed = (await (await checks(id, '?refresh=1', admin)).json()) as CheckReport
    expect(refreshed.checks).toEqual(report.checks)
  })

  it('with ?links=live, reports the link a local server answers 404, naming it, and keeps the result', async () => {
    const site = createServer((request, response) => {
      response.writeHead(request.url === '/verify' ? 200 : 404, { 'content-type': 'text/html' })
      response.end('<p>page</p>')
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
      const html = `<p><a href="${origin}/verify">Verify</a> <a href="${origin}/gone">Old page</a></p>`
      const id = await send('email', { to: 'ana@example.com', subject: 'Links', html })
      const answer = await checks(id, '?links=live', admin)
      expect(answer.status).toBe(200)
      const report = checkReportSchema.parse(await answer.json())
      const broken = report.checks.filter((c) => c.id === 'links.broken')
      expect(broken).toHaveLength(1)
      expect(broken[0]).toMatchObject({ severity: 'error', category: 'links', status: 404 })
      expect(broken[0].message).toContain(`${origin}/gone`)
      // Kept with the report: asked again without refresh, the same findings, no new requests needed.
      site.close()
      const again = checkReportSchema.parse(await (await checks(id, '?links=live', admin)).json())
      expect(again.checks.filter((c) => c.id === 'links.broken')).toEqual(broken)
    } finally {
      site.close()
    }
  })

  it('names a curly apostrophe in an SMS and UCS-2', async () => {
    const id = await send('sms', { to: '+447700900123', message: 'It’s ready' })
    const report = (await (await checks(id, '', admin)).json()) as CheckReport
    expect(report.checks[0]).toMatchObject({ id: 'sms.ucs2-character', character: '’', position: 2, replacement: "'" })
    expect(report.checks[0].message).toContain('UCS-2')
  })

  it('flags a WhatsApp parameter with a line break', async () => {
    const id = await send('whatsapp', {
      to: '+447700900123',
      template: 'order_update',
      language: 'en',
      parameters: { name: 'Ana\nMaria' },
    })
    const report = (await (await checks(id, '', admin)).json()) as CheckReport
    expect(report.checks).toEqual([
      expect.objectContaining({ id: 'whatsapp.parameter-line-break', severity: 'error', parameter: 'name' }),
    ])
    expect(report.score).toBe(75)
  })

  it("answers 404 for an unknown id, and for another account's message to a team token", async () => {
    expect((await checks('msg_unknown', '', admin)).status).toBe(404)
    const theirs = await send('sms', { to: '+447700900123', message: 'globex' }, 'test_starter')
    const ours = await send('sms', { to: '+447700900123', message: 'acme' })
    const team = { authorization: 'Bearer team_acme_token_0001' }
    expect((await checks(theirs, '', team)).status).toBe(404)
    expect((await checks(ours, '', team)).status).toBe(200)
    expect((await checks(ours, '?links=sometimes', admin)).status).toBe(400)
  })
})
