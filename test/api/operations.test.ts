/**
 * Issue 36, item 6: the probes and metrics of a shared instance, over HTTP on the standalone
 * server with an admin token and a team token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standalone } from '../helpers.js'

const ADMIN = 'adm_operations_0001'
const TEAM = { name: 'qa', token: 'team_qa_0123456789', accounts: ['acme'] }

describe('probes and metrics', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  const get = (path: string, token?: string) =>
    fetch(`${server.running.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  beforeAll(async () => {
    server = await standalone({
      apiKeys: { acme_key: 'pro:acme', other_key: 'pro:other' },
      adminToken: ADMIN,
      teamTokens: [TEAM],
    })
  })
  afterAll(() => server?.close())

  it('livez and readyz answer without a token and reveal nothing', async () => {
    // The first request may come before the sandbox is ready (its HTML tools load at start): wait first.
    for (const path of [
      '/__sandbox/livez',
      '/__sandbox/readyz?wait=5s',
      '/__sandbox/readyz',
      '/__sandbox/readyz?wait=250ms',
    ]) {
      const answer = await get(path)
      expect({ path, status: answer.status }).toEqual({ path, status: 200 })
      expect(await answer.text()).toBe('{"ok":true}')
    }
    const bad = await get('/__sandbox/readyz?wait=2m')
    expect(bad.status).toBe(400)
    expect((await bad.json()).error).toMatchObject({ code: 'invalid_parameter', param: 'wait' })
    expect((await get('/__sandbox/readyz?wait=61s')).status).toBe(400)
  })

  it("metrics: the admin's only, in the Prometheus text format, counting requests, messages and evictions", async () => {
    expect((await get('/__sandbox/metrics')).status).toBe(401)
    expect((await get('/__sandbox/metrics', TEAM.token)).status).toBe(403)
    const send = await fetch(`${server.base}/sms/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer acme_key', 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+14155550100', message: 'hi' }),
    })
    expect(send.status).toBe(200)
    const answer = await get('/__sandbox/metrics', ADMIN)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = await answer.text()
    expect(text).toContain('# TYPE sendbox_requests_total counter')
    expect(text).toMatch(/^sendbox_requests_total\{route="sendSms",status="200"\} 1$/m)
    expect(text).toMatch(/^sendbox_requests_total\{route="metrics",status="403"\} 1$/m)
    expect(text).toMatch(/^sendbox_messages\{channel="sms",status="(queued|sent|delivered)"\} 1$/m)
    for (const name of [
      'sendbox_waiters',
      'sendbox_event_clients',
      'sendbox_store_writes_total',
      'sendbox_store_write_seconds',
      'sendbox_evictions_total',
    ])
      expect(text).toContain(`# TYPE ${name} `)
    // Every sample line is `name{labels} value`.
    for (const line of text
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$/)
  })
})
