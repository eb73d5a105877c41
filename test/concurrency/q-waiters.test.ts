/**
 * Issue 36, R3: 1,000 waiters, each with a different worst-case `q` (500 × "a" then "b" and a
 * number), and one 1 MiB email of "a": the waits' search work is done in slices of the
 * WaitBudget, so a health check is answered between two slices, not after all of them (it took
 * 18.7 s). At a size that runs in seconds by default; `SENDBOX_Q_WAITS=1000
 * SENDBOX_Q_BYTES=1048576` runs the finding's own size. The health latency is printed, not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standalone } from '../helpers.js'

const WAITS = Number(process.env.SENDBOX_Q_WAITS ?? 200)
const BYTES = Number(process.env.SENDBOX_Q_BYTES ?? 256 * 1024)

describe('waits with a costly q each and one large email (R3)', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  const controller = new AbortController()
  beforeAll(async () => {
    server = await standalone({ deliveryMs: 0, maxWaiters: Math.max(1_000, WAITS) })
  })
  afterAll(async () => {
    controller.abort()
    await server?.close()
  })

  it('answers a health check while the waits are still reading, and every wait stays held', async () => {
    const control = `${server.running.url}/__sandbox`
    const held = Array.from({ length: WAITS }, (_, i) =>
      fetch(`${control}/messages/wait?timeout=60000&q=${'a'.repeat(500)}b${i}`, { signal: controller.signal }).then(
        (r) => r.status,
        () => 0,
      ),
    )
    const health = async () => (await (await fetch(`${control}/health`)).json()) as { waiters: number }
    while ((await health()).waiters < WAITS) await new Promise((resolve) => setTimeout(resolve, 20))

    const sent = await fetch(`${server.base}/email/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'ana@example.com', subject: 'big', html: `<p>${'a'.repeat(BYTES)}</p>` }),
    })
    expect(sent.status).toBe(200)
    const started = performance.now()
    const answer = await health()
    const ms = performance.now() - started
    const left = server.sandbox.outbox.budget.pending
    console.log(
      `R3: ${WAITS} waits with a different q, a ${BYTES}-byte email: health answered in ${ms.toFixed(1)} ms with ${left} waits' work still to do`,
    )
    // The health check did not wait for the waits' work: some of it was still to do.
    expect(left).toBeGreaterThan(0)
    expect(answer.waiters).toBe(WAITS)
    controller.abort()
    expect(new Set(await Promise.all(held))).toEqual(new Set([0]))
  }, 120_000)
})
