import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { startCli, type CliChild } from '../cli-child.js'

/**
 * Issue 27, N2/N4: waiters and event-stream clients are capped in number (`--max-waiters`,
 * `--max-event-clients`); past a cap the answer is 503 `too_many_clients` with Retry-After, in the
 * error shape, and a slot frees when a client leaves. Memory and health under 1,000 of each are
 * measured by `node bench/fanout.mjs`, not here.
 */
describe('caps on long-polls and event streams (standalone)', () => {
  let cli: CliChild
  beforeAll(async () => {
    cli = await startCli([
      '--no-ui',
      '--port',
      '0',
      '--delivery-ms',
      '0',
      '--max-waiters',
      '2',
      '--max-event-clients',
      '1',
    ])
  })
  afterAll(() => cli?.kill())

  /** A request whose answer headers resolve it; `abort` hangs up. */
  const open = (path: string) => {
    let req!: ReturnType<typeof request>
    const answered = new Promise<{ status: number; headers: Record<string, unknown>; body: Promise<string> }>(
      (resolve, reject) => {
        req = request(`${cli.origin}${path}`, { agent: false }, (res) => {
          const body = new Promise<string>((done) => {
            let text = ''
            res
              .setEncoding('utf8')
              .on('data', (chunk: string) => (text += chunk))
              .on('end', () => done(text))
              .on('close', () => done(text))
          })
          resolve({ status: res.statusCode!, headers: res.headers, body })
        })
        req.on('error', reject)
        req.end()
      },
    )
    // A request hung up before its answer rejects `answered`; where nobody awaits it, that is expected, not an unhandled rejection.
    answered.catch(() => {})
    return { answered, abort: () => req.destroy() }
  }
  const health = async () =>
    (await (await fetch(`${cli.origin}/__sandbox/health`)).json()) as { waiters: number; event_clients: number }

  it('holds --max-waiters waits, refuses the next with 503 + Retry-After, and answers it when a message already matches', async () => {
    const first = open('/__sandbox/messages/wait?channel=sms&to=%2B14155550001&timeout=30000')
    const second = open('/__sandbox/messages/wait?channel=sms&to=%2B14155550002&timeout=30000')
    await expect.poll(async () => (await health()).waiters).toBe(2)
    const third = await fetch(`${cli.origin}/__sandbox/messages/wait?channel=email&timeout=30000`)
    expect(third.status).toBe(503)
    expect(third.headers.get('retry-after')).toBe('5')
    expect(await third.json()).toMatchObject({
      error: { code: 'too_many_clients', message: expect.stringMatching(/--max-waiters/) },
    })

    await fetch(`${cli.origin}/v1/email/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'ana@example.com', subject: 'There already', html: '<p>x</p>' }),
    })
    const matching = await fetch(`${cli.origin}/__sandbox/messages/wait?channel=email&timeout=30000`)
    expect(matching.status).toBe(200)
    expect(await matching.json()).toMatchObject({ channel: 'email', email: { subject: 'There already' } })

    first.abort()
    await expect.poll(async () => (await health()).waiters).toBe(1)
    const again = open('/__sandbox/messages/wait?channel=email&to=nobody@example.com&timeout=100')
    expect((await again.answered).status).toBe(408)
    second.abort()
  })

  it('allows --max-event-clients streams, refuses the next, and frees the slot when one leaves', async () => {
    const stream = open('/__sandbox/events')
    expect((await stream.answered).status).toBe(200)
    const refused = await fetch(`${cli.origin}/__sandbox/events`)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.json()).toMatchObject({
      error: { code: 'too_many_clients', message: expect.stringMatching(/--max-event-clients/) },
    })
    stream.abort()
    await expect
      .poll(
        async () =>
          await fetch(`${cli.origin}/__sandbox/events`, { signal: AbortSignal.timeout(2_000) })
            .then((r) => {
              void r.body?.cancel()
              return r.status
            })
            .catch(() => 0),
        { timeout: 5_000 },
      )
      .toBe(200)
  })
})

describe('the caps in-process', () => {
  it('take whole numbers from 1 to 100,000 and say so otherwise', () => {
    expect(createSandbox({ maxWaiters: 5, maxEventClients: 7 })).toMatchObject({ maxWaiters: 5, maxEventClients: 7 })
    expect(createSandbox()).toMatchObject({ maxWaiters: 1_000, maxEventClients: 1_000 })
    expect(() => createSandbox({ maxWaiters: 0 })).toThrow(/maxWaiters must be a whole number from 1 to 100000/)
    expect(() => createSandbox({ maxEventClients: Number.POSITIVE_INFINITY })).toThrow(RangeError)
  })
})
