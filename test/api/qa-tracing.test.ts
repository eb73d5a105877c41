import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/contract/journal.js'
import { auth, inProcess, standalone } from '../helpers.js'

/** Issue 33, item 3 (QA without curl): what the two UIs need from the server, over HTTP. */
describe('tracing, over the standalone server', () => {
  let env: Awaited<ReturnType<typeof standalone>>
  const posted: Array<Record<string, string>> = []
  const admin = { 'x-sendbox-admin-token': 'adm_qa_tracing_01' }

  beforeAll(async () => {
    env = await standalone({
      deliveryMs: 0,
      adminToken: 'adm_qa_tracing_01',
      apiKeys: { north_key: 'pro:north', south_key: 'pro:south' },
      teamTokens: [{ name: 'north', token: 'tok_north_0001', accounts: ['north'] }],
      webhook: {
        url: 'http://hooks.test/in',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        post: async (_url, headers) => (posted.push(headers), { status: 204, excerpt: '' }),
      },
    })
  })
  afterAll(() => env?.close())

  const control = (path: string, headers: Record<string, string> = admin) =>
    fetch(`${env.running.url}${path}`, { headers }).then((r) => r.json() as Promise<Record<string, unknown>>)

  it('a request refused by an injected fault keeps its body in the journal and names the fault', async () => {
    const armed = await fetch(`${env.running.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503, path: '/v1/sms/send', times: 1 }),
    })
    const fault = (await armed.json()) as { id: string }
    expect(fault.id).toMatch(/^flt_\d+$/)
    const body = { to: '+14155550123', message: 'refused by a fault' }
    const refused = await fetch(`${env.base}/sms/send`, {
      method: 'POST',
      headers: auth('north_key'),
      body: JSON.stringify(body),
    })
    expect(refused.status).toBe(503)
    const journal = (await control('/__sandbox/requests')) as { data: JournalEntry[] }
    const entry = journal.data.find((e) => e.path === '/v1/sms/send')!
    expect(entry.status).toBe(503)
    expect(JSON.parse(entry.request_body!)).toEqual(body)
    expect(entry.fault_id).toBe(fault.id)
    expect(entry.error_message).toContain(`injected fault ${fault.id}`)
  })

  it('webhook ids are evt_, each attempt names its message, and only the admin sees the signing secret', async () => {
    const sent = await fetch(`${env.base}/sms/send`, {
      method: 'POST',
      headers: auth('north_key'),
      body: JSON.stringify({ to: '+14155550123', message: 'hi' }),
    })
    const { message_id } = (await sent.json()) as { message_id: string }
    await env.sandbox.webhooks!.idle()
    const page = (await control('/__sandbox/webhooks?limit=100')) as {
      data: Array<{ webhook_id: string; message_id: string }>
      url: string
      secret?: string
    }
    expect(page.url).toBe('http://hooks.test/in')
    expect(page.secret).toBe('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
    const mine = page.data.filter((a) => a.message_id === message_id)
    expect(mine.length).toBeGreaterThan(0)
    for (const attempt of mine) expect(attempt.webhook_id).toMatch(/^evt_/)
    expect(posted.every((h) => h['webhook-id'].startsWith('evt_'))).toBe(true)
    // The attempt's journal line links to the message too.
    const journal = (await control('/__sandbox/requests')) as { data: JournalEntry[] }
    expect(journal.data.some((e) => e.kind === 'webhook' && e.message_id === message_id)).toBe(true)
    // A team token sees its attempts, never the secret that signs every account's events.
    const team = await control('/__sandbox/webhooks', { authorization: 'Bearer tok_north_0001' })
    expect(team.secret).toBeUndefined()
    expect((team.data as unknown[]).length).toBeGreaterThan(0)
  })

  it('an inbound reply is found by `from` with the + of its number as a URL writes it', async () => {
    await fetch(`${env.running.url}/__sandbox/inbound`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'sms', key: 'north_key', from: '+14155550777', text: 'STOP' }),
    })
    const found = (await control('/__sandbox/messages?from=+14155550777')) as { data: Array<{ direction: string }> }
    expect(found.data.map((m) => m.direction)).toEqual(['inbound'])
    const encoded = (await control('/__sandbox/messages?from=%2B14155550777&direction=inbound')) as { data: unknown[] }
    expect(encoded.data).toHaveLength(1)
  })

  it('the email preview says remote content is blocked only when the email has some, and not with banner=0', async () => {
    const send = async (html: string) =>
      (
        (await (
          await fetch(`${env.base}/email/send`, {
            method: 'POST',
            headers: auth('north_key'),
            body: JSON.stringify({ to: 'ana@example.com', subject: 'x', html }),
          })
        ).json()) as { message_id: string }
      ).message_id
    const plain = await send('<p>Hi <a href="https://example.com/a">a</a></p>')
    const remote = await send('<p>Hi <img src="https://cdn.example.com/logo.png"></p>')
    const html = (id: string, query = '') =>
      fetch(`${env.running.url}/__sandbox/messages/${id}/html${query}`, { headers: admin }).then((r) => r.text())
    expect(await html(plain)).not.toContain('Remote content blocked')
    expect(await html(remote)).toContain('Remote content blocked')
    expect(await html(remote, '?banner=0')).not.toContain('Remote content blocked')
    expect(await html(remote, '?remote=1')).not.toContain('Remote content blocked')
  })

  it('a 401 from the standalone server names its keys and where they are set', async () => {
    const answer = (await (await fetch(`${env.base}/subscribers`)).json()) as { error: { message: string } }
    expect(answer.error.message).toContain('`--api-key` on the command line')
    expect(answer.error.message).toContain(') are no…y, so…y')
  })
})

describe('a 401 in-process', () => {
  it('names the configured keys, not a command the test cannot run', async () => {
    const env = inProcess({ apiKeys: { test_alpha: 'pro', test_beta: 'starter' } })
    try {
      const missing = (await (await env.call('GET', '/subscribers', undefined, {})).json()) as {
        error: { message: string }
      }
      expect(missing.error.message).not.toContain('sendbox keys')
      expect(missing.error.message).toContain('apiKeys')
      const wrong = (await (await env.call('GET', '/subscribers', undefined, auth('test_wrong'))).json()) as {
        error: { message: string }
      }
      expect(wrong.error.message).not.toContain('sendbox keys')
      expect(wrong.error.message).toMatch(
        /configured keys \(the `apiKeys` option, or `--api-key` on the command line\) are /,
      )
    } finally {
      env.dispose()
    }
  })
})
