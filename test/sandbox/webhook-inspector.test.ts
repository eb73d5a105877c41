import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { direct } from '../helpers.js'

/** A real receiver: `answer` decides each reply; every post is verified with the standardwebhooks library. */
async function receiver(secret: string, answer: (res: ServerResponse, n: number) => void) {
  const verifier = new Webhook(secret)
  const received: Array<{ id: string; type: string }> = []
  let n = 0
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const event = verifier.verify(body, req.headers as Record<string, string>) as { type: string }
      received.push({ id: String(req.headers['webhook-id']), type: event.type })
      answer(res, ++n)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

const send = (api: ReturnType<typeof direct>) => api.call('POST', '/sms/send', { to: '+14155550123', message: 'hi' })

describe('webhook inspector', () => {
  it('--webhook-duplicates 1 sends every event twice with the same webhook-id', async () => {
    const hook = await receiver('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', (res) => res.end())
    const dup = direct({
      deliveryMs: 0,
      webhook: { url: hook.url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', duplicates: 1 },
    })
    await send(dup)
    await dup.sandbox.webhooks!.idle()
    expect(hook.received).toHaveLength(4)
    const counts = new Map<string, number>()
    for (const r of hook.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1)
    expect([...counts.values()]).toEqual([2, 2])
    expect(
      dup.sandbox
        .webhooks!.attempts.list()
        .map((a) => a.trigger)
        .sort(),
    ).toEqual(['duplicate', 'duplicate', 'event', 'event'])
    dup.dispose()
    await hook.close()
  })

  it('keeps each attempt: status, excerpt, attempt number, next retry; retries keep the webhook-id', async () => {
    const hook = await receiver('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', (res, n) => {
      res.statusCode = n <= 2 ? 503 : 200
      res.end(n <= 2 ? 'x'.repeat(10 * 1024 * 1024) : 'ok')
    })
    const api = direct({
      deliveryMs: 60_000,
      webhook: { url: hook.url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', baseDelayMs: 20 },
    })
    await send(api)
    api.sandbox.clock.advance(60_000)
    await api.sandbox.webhooks!.idle()
    const attempts = api.sandbox.webhooks!.attempts.list().reverse()
    expect(attempts.map((a) => [a.attempt, a.response?.status, a.error])).toEqual([
      [1, 503, 'http_503'],
      [2, 503, 'http_503'],
      [3, 200, null],
    ])
    expect(new Set(attempts.map((a) => a.webhook_id)).size).toBe(1)
    expect(new Set(hook.received.map((r) => r.id))).toEqual(new Set([attempts[0].webhook_id]))
    expect(attempts[0].response!.body_excerpt.length).toBe(1024)
    expect(attempts[0].next_retry_at).not.toBeNull()
    expect(attempts[2].next_retry_at).toBeNull()
    expect(attempts[0].request.headers).toMatchObject({
      'webhook-id': attempts[0].webhook_id,
      'webhook-signature': expect.stringMatching(/^v1,/),
    })
    api.dispose()
    await hook.close()
  })

  it('a receiver that hangs times out, never holding more than 16 attempts in flight', async () => {
    const hook = await receiver('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', () => {})
    const api = direct({
      deliveryMs: 60_000,
      webhook: { url: hook.url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', timeoutMs: 200, attempts: 1 },
    })
    for (let i = 0; i < 20; i++) await send(api)
    api.sandbox.clock.advance(60_000)
    await new Promise((r) => setTimeout(r, 50))
    expect(api.sandbox.webhooks!.attempts.list().filter((a) => a.state === 'sending')).toHaveLength(16)
    await api.sandbox.webhooks!.idle()
    expect(api.sandbox.webhooks!.attempts.list().every((a) => a.error === 'timeout')).toBe(true)
    api.dispose()
    await hook.close()
  })

  it('refuses a secret that is not whsec_ base64', () => {
    expect(() => direct({ webhook: { url: 'http://127.0.0.1:9/x', secret: 'whsec_' } })).toThrow(/whsec_/)
  })
})
