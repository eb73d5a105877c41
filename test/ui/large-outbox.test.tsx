import { afterEach, describe, expect, it } from 'vitest'
import { smsChannel } from '../../src/domain/channels/index.js'
import { auth } from '../helpers.js'
import { KEYS, mountUi } from './ui-harness.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

/**
 * Fills the outbox the way the SMS handler does (same capture builder), without 10,000 HTTP
 * round trips: this file measures the UI, the API has its own tests.
 */
function fill(target: NonNullable<typeof app>, count: number) {
  const key = target.sandbox.keys.find((k) => k.key === 'test_pro')!
  for (let i = 0; i < count; i++) {
    target.sandbox.outbox.capture(
      smsChannel.capture(key, { to: `+1415${String(i).padStart(7, '0')}`, message: `bulk message ${i}` }, {}, () => 1),
    )
  }
}

describe('a large outbox', () => {
  // How fast keys are answered is measured by the benchmark (bench/ui-hostile.mjs), not here.
  it('with 10,000 messages (the outbox cap) renders only the visible rows, and moves, searches and filters', async () => {
    app = mountUi({ columns: 100, rows: 30 })
    fill(app, 9_999)
    await app.send('email', { to: 'needle@example.com', subject: 'The needle', html: '<p>x</p>' })
    const frame = await app.waitFor((f) => f.includes('The needle'))
    expect(frame.split('\n')).toHaveLength(29)
    expect(frame).toMatch(/EMAIL 1\s+SMS 9,999/)
    expect(frame.split('\n').filter((l) => l.includes('bulk message')).length).toBe(22)

    for (let i = 0; i < 40; i++) await app.press('j')
    expect(
      app
        .frame()
        .split('\n')
        .find((l) => l.startsWith('›')),
    ).toContain('bulk message 9959')
    await app.press('G')
    expect(
      app
        .frame()
        .split('\n')
        .find((l) => l.startsWith('›')),
    ).toContain('bulk message 0')
    // A search over 10,000 messages, typed key by key.
    expect(app.frame()).toContain('10,000 of 10,000')
    await app.press('/', 'n', 'e', 'e', 'd', 'l', 'e', KEYS.enter)
    expect(app.frame()).toContain('1 of 10,000')
    expect(app.frame()).toContain('The needle')
    await app.press(KEYS.escape, '2')
    expect(app.frame()).toContain('SMS only · 9,999 of 10,000')
  })

  it('batches a burst of sends into at most ~10 redraws a second', async () => {
    app = mountUi({ columns: 100, rows: 30, apiKeys: { test_pro: 'enterprise' } })
    await app.waitFor((f) => f.includes('No messages yet'))
    const before = app.ui.frames.length
    const started = performance.now()
    // A steady stream for ~0.8 s, ten requests in flight at a time.
    let sent = 0
    while (performance.now() - started < 800) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          app!.call('POST', '/sms/send', { to: '+14155550123', message: `burst ${sent++}` }, auth('test_pro')),
        ),
      )
      // In-process fetch settles in microtasks only; real requests arrive as I/O, between which timers run.
      await new Promise((resolve) => setImmediate(resolve))
    }
    await app.waitFor((f) => f.includes(`burst ${sent - 1}`))
    const elapsed = performance.now() - started
    const redraws = app.ui.frames.length - before
    console.log(`${sent} sends in ${elapsed.toFixed(0)} ms: ${redraws} redraws`)
    // 10 a second from the feed, plus the header's once-a-second clock and a leading redraw.
    expect(redraws).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + Math.ceil(elapsed / 1000) + 2)
    // ...and it stayed live during the stream, not only at the end: a frame showed a send before the last.
    // (A count of redraws would be a timing assertion: a loaded machine's timers fire late.)
    const last = `burst ${sent - 1}`
    const during = app.ui.frames.slice(before).filter((f) => f.includes('burst ') && !f.includes(last))
    expect(during.length).toBeGreaterThanOrEqual(1)
  })
})
