import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { auth } from '../helpers.js'

/**
 * Issue 14 item 6: under `setupServer`, a webhook receiver that is itself an msw handler and
 * answers with a body. Today nothing was journaled or retried and `webhooks.idle()` never
 * resolved: the sender awaited `response.body.cancel()`, which does not settle on msw's mocked
 * response stream.
 */
describe('webhooks when the receiver is an msw handler that answers with a body', () => {
  const HOOK = 'https://hooks.example.com/sendbox'
  const sandbox = createSandbox({ deliveryMs: 0, webhook: { url: HOOK, baseDelayMs: 1, attempts: 3 } })
  const received: string[] = []
  let failFirst = true
  const server = setupServer(
    http.post(HOOK, async ({ request }) => {
      received.push(((await request.json()) as { type: string }).type)
      if (failFirst) {
        failFirst = false
        return HttpResponse.json({ error: 'try again' }, { status: 503 })
      }
      return HttpResponse.json({ received: true, echo: 'x'.repeat(100_000) })
    }),
    ...sandbox.handlers,
  )
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => {
    server.close()
    sandbox.dispose()
  })

  it('journals each attempt, retries the failed one and lets webhooks.idle() resolve', async () => {
    const sent = await fetch(`${sandbox.baseUrl}/sms/send`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ to: '+14155550123', message: 'hi' }),
    })
    expect(sent.status).toBe(200)
    await sandbox.outbox.list()[0] // captured
    const settled = await Promise.race([
      sandbox.webhooks!.idle().then(() => 'idle'),
      new Promise((r) => setTimeout(() => r('hung'), 3_000)),
    ])
    expect(settled).toBe('idle')
    const attempts = sandbox.journal.list().filter((e) => e.kind === 'webhook')
    // sent and delivered, whichever arrived first failed once (the two posts run in parallel):
    // 3 posts in all, each journaled.
    expect(received).toHaveLength(3)
    expect([...new Set(received)].sort()).toEqual(['message.delivered', 'message.sent'])
    expect(attempts.map((e) => e.status).sort()).toEqual([200, 200, 503])
  })
})
