/**
 * Issue 36, R3: a large email's derivation (the HTML tools' loading, the render, the codes) runs
 * in turns of the event loop of its own, ahead of the capture, so other requests are answered
 * between its steps rather than after ~30 ms of one block for a 1 MiB email. Counted in turns
 * (what the change is), not timed.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { dispatchSends } from '../web/support.js'

let sandbox: Sandbox | undefined
afterEach(() => sandbox?.dispose())

/** How many turns of the event loop passed while `work` ran. */
async function turnsDuring(work: Promise<unknown>): Promise<number> {
  let turns = 0
  let done = false
  const tick = () => {
    if (done) return
    turns++
    setImmediate(tick)
  }
  setImmediate(tick)
  await work
  done = true
  return turns
}

describe('a large email is derived in turns of its own', () => {
  it('leaves the event loop between loading, rendering and finding codes, and keeps what it derived', async () => {
    sandbox = createSandbox({ deliveryMs: 0 })
    await sandbox.ready
    await dispatchSends(sandbox, '/email/send', 'test_pro', [
      { to: 'ana@example.com', subject: 'warm', html: '<p>warm</p>' },
    ])
    const html = `<p>Your code is 482913.</p><p>${'a '.repeat(300_000)}</p><a href="https://example.com/x">x</a>`
    const turns = await turnsDuring(
      dispatchSends(sandbox, '/email/send', 'test_pro', [{ to: 'ana@example.com', subject: 'big', html }]),
    )
    expect(turns).toBeGreaterThanOrEqual(3)
    const [message] = sandbox.outbox.list({ subject: 'big' })
    expect(message.codes).toEqual(['482913'])
    expect(message.links).toEqual(['https://example.com/x'])
    expect(message.text.length).toBeGreaterThan(300_000)
  })

  it('a small email takes no extra turn for it', async () => {
    sandbox = createSandbox({ deliveryMs: 0 })
    await sandbox.ready
    const send = (html: string) =>
      dispatchSends(sandbox!, '/email/send', 'test_pro', [{ to: 'ana@example.com', subject: 'hi', html }])
    await send('<p>warm</p>') // the HTML tools load on the first email
    const turns = await turnsDuring(send('<p>Your code is 482913.</p>'))
    expect(turns).toBeLessThan(3)
    expect(sandbox.outbox.list()[0].codes).toEqual(['482913'])
  })
})
