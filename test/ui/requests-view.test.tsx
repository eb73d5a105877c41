import { afterEach, describe, expect, it } from 'vitest'
import { auth } from '../helpers.js'
import { KEYS, mountUi, SAMPLES } from './ui-harness.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

describe('requests view', () => {
  it('Tab switches to the live request journal and back', async () => {
    app = mountUi()
    await app.send('email', SAMPLES.email)
    await app.waitFor((f) => f.includes('Welcome aboard'))
    await app.press(KEYS.tab)
    let frame = app.frame()
    expect(frame).toMatch(/METHOD\s+PATH\s+STAT\s+DURATION\s+ERROR CODE/)
    expect(frame).toMatch(/POST\s+\/v1\/email\/send\s+200\s+\d+(\.\d)? ms\s+—/)
    expect(frame).not.toContain('Welcome aboard')
    // Live: a failing request appears on top without any key press.
    await app.call('POST', '/sms/send', { to: '12', message: 'x' })
    frame = await app.waitFor((f) => f.includes('invalid_phone'))
    const lines = frame.split('\n')
    const failed = lines.findIndex((l) => l.includes('invalid_phone'))
    expect(lines[failed]).toMatch(/^› \d\d:\d\d:\d\d POST\s+\/v1\/sms\/send\s+400\s+\d+(\.\d)? ms\s+invalid_phone/)
    expect(lines[failed + 1]).toContain('/v1/email/send')
    await app.press(KEYS.tab)
    expect(app.frame()).toContain('Welcome aboard')
  })

  it('shows method, path, status and error code of every kind of answer', async () => {
    app = mountUi()
    await app.press(KEYS.tab)
    await app.call('GET', '/subscribers', undefined, {})
    await app.call('GET', '/subscribers?limit=2')
    await app.call('POST', '/email/send', SAMPLES.email, auth('test_pro', { prefer: 'code=500' }))
    const frame = await app.waitFor((f) => f.includes('internal_error'))
    expect(frame).toMatch(/GET\s+\/v1\/subscribers\s+401\s.*unauthorized/)
    expect(frame).toMatch(/GET\s+\/v1\/subscribers\s+200\s/)
    expect(frame).toMatch(/POST\s+\/v1\/email\/send\s+500\s.*internal_error/)
    // The list moves like the outbox.
    await app.press('j')
    expect(frame.split('\n').some((l) => l.startsWith('› ') && l.includes('500'))).toBe(true)
    expect(app.frame().split('\n').find((l) => l.startsWith('› '))).toMatch(/GET\s+\/v1\/subscribers\s+200/)
  })
})
