import { afterEach, describe, expect, it } from 'vitest'
import { maskKey } from '../../src/domain/plans.js'
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
    expect(lines[failed]).toMatch(
      /^› #\d+\s+\d\d:\d\d:\d\d POST\s+\/v1\/sms\/send\s+400\s+\d+(\.\d)? ms\s+invalid_phone/,
    )
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
    expect(frame).toMatch(/GET\s+\/v1\/subscribers\?limit=2\s+200\s/)
    expect(frame).toMatch(/POST\s+\/v1\/email\/send\s+500\s.*internal_error/)
    // The list moves like the outbox.
    await app.press('j')
    expect(frame.split('\n').some((l) => l.startsWith('› ') && l.includes('500'))).toBe(true)
    expect(
      app
        .frame()
        .split('\n')
        .find((l) => l.startsWith('› ')),
    ).toMatch(/GET\s+\/v1\/subscribers\?limit=2\s+200/)
  })
})

describe('a request, opened', () => {
  it('Enter shows method, path, query, status, duration, error code and message, account, masked key, and both bodies', async () => {
    app = mountUi({ columns: 80, rows: 50 })
    await app.press(KEYS.tab)
    // A real failing request first, then an entry as the journal keeps one with every field.
    await app.call('POST', '/sms/send', { to: '12', message: 'x' })
    await app.waitFor((f) => f.includes('invalid_phone'))
    app.sandbox.journal.record({
      at: new Date(app.clock.now()).toISOString(),
      kind: 'api',
      method: 'POST',
      path: '/v1/email/send',
      query: 'dry_run=1',
      status: 422,
      duration_ms: 3.25,
      error_code: 'invalid_email',
      error_message: 'The `to` field must be an email address, like ana@example.com.',
      account: 'acct_demo',
      key: 'test_…pro',
      request_body: JSON.stringify({ to: 'not-an-email', subject: 'Hi', html: '<p>x</p>' }),
      response_body: JSON.stringify({
        error: { code: 'invalid_email', message: 'The `to` field must be an email address.' },
      }),
    })
    await app.waitFor((f) => f.includes('invalid_email'))
    await app.press(KEYS.enter)
    const frame = app.frame()
    expect(frame).toMatch(/REQUEST {2}#\d+ {2}422/)
    expect(frame).toMatch(/Method\s+POST/)
    expect(frame).toMatch(/Path\s+\/v1\/email\/send/)
    expect(frame).toMatch(/Query\s+dry_run=1/)
    expect(frame).toMatch(/Status\s+422/)
    expect(frame).toMatch(/Duration\s+3\.3 ms/)
    expect(frame).toMatch(/Error\s+invalid_email/)
    expect(frame).toMatch(/Message\s+The `to` field must be an email address, like ana@example\.com\./)
    expect(frame).toMatch(/Account\s+acct_demo/)
    expect(frame).toMatch(/Key\s+test_…pro/)
    // Pretty JSON, and the answer's body for an error.
    expect(frame).toContain('── Request body')
    expect(frame).toContain('{\n  "to": "not-an-email",\n  "subject": "Hi",')
    expect(frame).toContain('── Answer body')
    expect(frame).toContain('  "error": {\n    "code": "invalid_email",')
    // Back, down to the real request: its line as it happened.
    await app.press(KEYS.escape, 'j', KEYS.enter)
    const real = app.frame()
    expect(real).toMatch(/Path\s+\/v1\/sms\/send/)
    expect(real).toMatch(/Status\s+400/)
    expect(real).toMatch(/Error\s+invalid_phone/)
    expect(real).toContain(`Key       ${maskKey('test_pro')}`)
  })

  it('e shows errors only, and again every request', async () => {
    app = mountUi()
    await app.press(KEYS.tab)
    await app.call('GET', '/subscribers')
    await app.call('POST', '/sms/send', { to: '12', message: 'x' })
    await app.call('GET', '/subscribers', undefined, {})
    await app.waitFor((f) => f.includes('unauthorized'))
    await app.press('e')
    let frame = app.frame()
    expect(frame).toContain('errors only · 2 of 3')
    expect(frame).toContain('invalid_phone')
    expect(frame).toContain('unauthorized')
    expect(frame).not.toMatch(/\s200\s/)
    await app.press('e')
    frame = app.frame()
    expect(frame).not.toContain('errors only ·')
    expect(frame).toMatch(/GET\s+\/v1\/subscribers\s+200/)
  })
})
