import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSandbox, WaitTimeoutError, type SandboxEvent } from '../../src/index.js'
import { inProcess } from '../helpers.js'

const api = inProcess({ deliveryMs: 1_000 })
afterAll(() => api.dispose())
beforeEach(() => api.sandbox.reset())

const resetEmail = (to = 'maria@example.com') =>
  api.call('POST', '/email/send', {
    to,
    subject: 'Reset your password',
    from: { email: 'security@acme.test', name: 'Acme Security' },
    html: '<h1>Reset Your Password</h1><p>Hi María, click <a href="https://acme.test/reset?token=a1b2c3&amp;uid=42">reset</a>.</p><img src="https://cdn.acme.test/logo.png" alt="Acme"><p>Your verification code: <b>582930</b></p>',
  })
const otpSms = (to = '+14155550123', message = 'Your Acme code is 482913. Reply STOP to opt out.') =>
  api.call('POST', '/sms/send', { to, message })
const whatsapp = (parameters: Record<string, string> = { 1: '731904' }, template = 'otp_login') =>
  api.call('POST', '/whatsapp/send', { to: '+14155550123', template, language: 'en', parameters })

describe('derived fields on every captured message', () => {
  it('email: text with headings as written, links from href (images apart) with entities decoded, the code', async () => {
    const { message_id } = await (await resetEmail()).json()
    const message = api.sandbox.outbox.get(message_id)!
    expect(message.channel).toBe('email')
    expect(message.text).toContain('Reset Your Password')
    expect(message.text).not.toContain('RESET YOUR PASSWORD')
    expect(message.links).toEqual(['https://acme.test/reset?token=a1b2c3&uid=42'])
    expect(message.images).toEqual(['https://cdn.acme.test/logo.png'])
    expect(message.codes).toEqual(['582930'])
  })

  it('SMS: the text as sent, links in it, the OTP', async () => {
    const { message_id } = await (
      await otpSms('+14155550123', 'Sign in with 482913 or tap https://acme.test/l/xyz.')
    ).json()
    const message = api.sandbox.outbox.get(message_id)!
    expect(message).toMatchObject({
      channel: 'sms',
      text: 'Sign in with 482913 or tap https://acme.test/l/xyz.',
      links: ['https://acme.test/l/xyz'],
    })
    // No keyword, two numbers? No: one number (the URL is not read) in a short SMS.
    expect(message.codes).toEqual(['482913'])
  })

  it('WhatsApp: the preview line, links from parameters, a code announced by the template name', async () => {
    const { message_id } = await (await whatsapp({ 1: '731904', link: 'https://acme.test/w?a=1' })).json()
    const message = api.sandbox.outbox.get(message_id)!
    expect(message.text).toBe('otp_login (en): 1=731904, link=https://acme.test/w?a=1')
    expect(message.links).toEqual(['https://acme.test/w?a=1'])
    expect(message.codes).toEqual(['731904'])
  })

  it('listed over HTTP too: GET /__sandbox/messages/{id} carries text, links and codes', async () => {
    const { message_id } = await (await otpSms()).json()
    const body = await (await fetch(`${new URL(api.base).origin}/__sandbox/messages/${message_id}`)).json()
    expect(body).toMatchObject({
      text: 'Your Acme code is 482913. Reply STOP to opt out.',
      links: [],
      codes: ['482913'],
    })
  })
})

describe('filters', () => {
  beforeEach(async () => {
    await resetEmail('maria@example.com')
    await otpSms('+14155550123')
    await whatsapp({ 1: '111222' }, 'order_update')
  })

  it('q searches recipient, sender, subject, text and template, case-insensitively', () => {
    const outbox = api.sandbox.outbox
    expect(outbox.list({ q: 'MARÍA' }).map((m) => m.channel)).toEqual(['email'])
    expect(outbox.list({ q: 'acme security' }).map((m) => m.channel)).toEqual(['email'])
    expect(outbox.list({ q: 'reply stop' }).map((m) => m.channel)).toEqual(['sms'])
    expect(outbox.list({ q: 'ORDER_UPDATE' }).map((m) => m.channel)).toEqual(['whatsapp'])
    expect(outbox.list({ q: '+1415' }).map((m) => m.channel)).toEqual(['whatsapp', 'sms'])
  })

  it('from, subject (substrings) and template (exact)', () => {
    const outbox = api.sandbox.outbox
    expect(outbox.list({ from: 'security@' })).toHaveLength(1)
    expect(outbox.list({ subject: 'password' })[0].channel).toBe('email')
    expect(outbox.list({ template: 'order_update' })[0].channel).toBe('whatsapp')
    expect(outbox.list({ template: 'order' })).toHaveLength(0)
  })

  it('a `to` of ?to=+1415… (the + decoded as a space) still matches the phone number', async () => {
    const origin = new URL(api.base).origin
    const page = await (await fetch(`${origin}/__sandbox/messages?to=+14155550123&channel=sms`)).json()
    expect(page.data.map((m: { to: string }) => m.to)).toEqual(['+14155550123'])
    expect(api.sandbox.outbox.list({ to: ' 14155550123' })).toHaveLength(2)
  })

  it('an unknown filter key is a TypeError naming it', () => {
    expect(() => api.sandbox.outbox.list({ chanel: 'sms' } as never)).toThrow(/unknown filter key "chanel"/)
  })
})

describe('waitFor', () => {
  it('resolves at once with the newest matching message already there', async () => {
    await otpSms('+14155550123', 'first 1111')
    await otpSms('+14155550123', 'second 2222')
    const message = await api.sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550123' })
    expect(message.sms.text).toBe('second 2222')
  })

  it('waits for the next matching capture, event-driven', async () => {
    const waiting = api.sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550199' }, { timeout: 5_000 })
    await otpSms('+14155550123')
    await otpSms('+14155550199', 'Your code is 990011')
    const message = await waiting
    expect(message.to).toBe('+14155550199')
    expect(message.codes).toEqual(['990011'])
  })

  it('`since` ignores older messages', async () => {
    await otpSms('+14155550123', 'old 1111')
    const since = Date.now() + 1
    const waiting = api.sandbox.outbox.waitFor({ channel: 'sms' }, { since, timeout: 5_000 })
    await new Promise((resolve) => setTimeout(resolve, 5))
    await otpSms('+14155550123', 'new 2222')
    expect((await waiting).sms.text).toBe('new 2222')
  })

  it('waits for a status step too (delivered after two steps)', async () => {
    const sandbox = createSandbox({ deliveryMs: 20 })
    await sandbox.ready
    const { getResponse } = await import('msw')
    await getResponse(
      sandbox.handlers,
      new Request(`${sandbox.baseUrl}/sms/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+14155550123', message: 'hi' }),
      }),
    )
    const delivered = await sandbox.outbox.waitFor({ status: 'delivered' }, { timeout: 2_000 })
    expect(delivered.status_history.map((s) => s.status)).toEqual(['queued', 'sent', 'delivered'])
    sandbox.dispose()
  })

  it('times out with the filter and the nearest misses in the message, and leaves nothing behind', async () => {
    await otpSms('+14155550124')
    await otpSms('+447700900123')
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const error = await api.sandbox.outbox
      .waitFor({ channel: 'sms', to: '+14155550123' }, { timeout: 50 })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WaitTimeoutError)
    expect((error as Error).message).toMatch(
      /^no SMS to \+14155550123 in 50 ms; the last 2 SMS went to \+447700900123 .*, \+14155550124 /,
    )
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThanOrEqual(before)
  })

  it('a typo in the filter is a TypeError, not an endless wait', async () => {
    await expect(api.sandbox.outbox.waitFor({ chanel: 'sms' } as never)).rejects.toThrow(TypeError)
    await expect(api.sandbox.outbox.waitFor({ channel: 'fax' } as never)).rejects.toThrow(/channel must be one of/)
  })

  it('an abort signal stops the wait', async () => {
    const controller = new AbortController()
    const waiting = api.sandbox.outbox.waitFor({ channel: 'email' }, { signal: controller.signal })
    controller.abort(new Error('test ended'))
    await expect(waiting).rejects.toThrow('test ended')
  })
})

describe('clock', () => {
  it('advance moves sandbox time: lifecycle steps come due at once, timestamps follow', async () => {
    const sandbox = createSandbox({ deliveryMs: 60_000 })
    await sandbox.ready
    const steps: string[] = []
    sandbox.events.subscribe((event) => {
      if (event.type === 'message.status') steps.push(event.change.status)
    })
    const { getResponse } = await import('msw')
    const res = await getResponse(
      sandbox.handlers,
      new Request(`${sandbox.baseUrl}/email/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
        body: JSON.stringify({ to: 'bounce@sendbox.test', subject: 's', html: 'h' }),
      }),
    )
    const { message_id } = await res!.json()
    const before = sandbox.clock.now()
    const state = sandbox.clock.advance(120_000)
    expect(state.offset_ms).toBe(120_000)
    expect(sandbox.clock.now() - before).toBeGreaterThanOrEqual(120_000)
    expect(steps).toEqual(['sent', 'failed'])
    expect(sandbox.outbox.get(message_id)!.status).toBe('failed')
    sandbox.clock.freeze(true)
    const frozen = sandbox.clock.now()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(sandbox.clock.now()).toBe(frozen)
    expect(sandbox.clock.state()).toMatchObject({ frozen: true })
    expect(sandbox.clock.reset()).toMatchObject({ offset_ms: 0, frozen: false })
    sandbox.dispose()
  })

  it('with a `now` option the user clock rules, and sandbox.clock says so', () => {
    const sandbox = createSandbox({ now: () => 0 })
    expect(sandbox.clock.controllable).toBe(false)
    expect(() => sandbox.clock.advance(1000)).toThrow(/created with its own `now` option/)
    sandbox.dispose()
  })

  it('the default clock reads Date.now at call time, so fake timers set after createSandbox are seen', () => {
    const sandbox = createSandbox()
    vi.useFakeTimers()
    try {
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'))
      expect(new Date(sandbox.now()).toISOString()).toBe('2030-01-01T00:00:00.000Z')
    } finally {
      vi.useRealTimers()
      sandbox.dispose()
    }
  })
})

describe('events, delete, reset, byte budget, preview tokens', () => {
  it('emits captured, status, request and reset events', async () => {
    const events: SandboxEvent['type'][] = []
    const off = api.sandbox.events.subscribe((event) => events.push(event.type))
    await otpSms()
    await api.sandbox.reset('messages')
    off()
    expect(events).toEqual(['message.captured', 'request', 'reset'])
  })

  it('delete removes one message and says whether it was there', async () => {
    const { message_id } = await (await otpSms()).json()
    expect(api.sandbox.outbox.delete(message_id)).toBe(true)
    expect(api.sandbox.outbox.get(message_id)).toBeUndefined()
    expect(api.sandbox.outbox.size).toBe(0)
    expect(api.sandbox.outbox.delete(message_id)).toBe(false)
  })

  it('reset with an unknown scope is a TypeError naming the valid scopes', async () => {
    await expect(api.sandbox.reset('everything' as never)).rejects.toThrow(
      /unknown scope "everything".*subscribers, messages, limits, faults, journal/,
    )
  })

  it('the outbox is bounded by bytes: the oldest are evicted first', async () => {
    const sandbox = createSandbox({ maxOutboxBytes: 600_000 })
    await sandbox.ready
    const { getResponse } = await import('msw')
    const html = `<p>${'x'.repeat(100_000)}</p>`
    for (let i = 0; i < 10; i++) {
      await getResponse(
        sandbox.handlers,
        new Request(`${sandbox.baseUrl}/email/send`, {
          method: 'POST',
          headers: { authorization: 'Bearer test_enterprise', 'content-type': 'application/json' },
          body: JSON.stringify({ to: `u${i}@example.com`, subject: `n${i}`, html }),
        }),
      )
    }
    expect(sandbox.outbox.bytes).toBeLessThanOrEqual(600_000)
    expect(sandbox.outbox.size).toBeLessThan(10)
    expect(sandbox.outbox.evicted).toBe(10 - sandbox.outbox.size)
    expect(sandbox.outbox.list()[0].to).toBe('u9@example.com')
    sandbox.dispose()
  })

  it('a preview token belongs to one message', async () => {
    const a = (await (await resetEmail('a@example.com')).json()).message_id
    const b = (await (await resetEmail('b@example.com')).json()).message_id
    const token = api.sandbox.outbox.previewToken(a)!
    expect(token).toMatch(/^pvw_[0-9A-Za-z]{24}$/)
    expect(api.sandbox.outbox.previewToken(a)).toBe(token)
    expect(api.sandbox.outbox.checkPreviewToken(a, token)).toBe(true)
    expect(api.sandbox.outbox.checkPreviewToken(b, token)).toBe(false)
    expect(api.sandbox.outbox.previewToken('msg_nope')).toBeUndefined()
  })
})

describe('admin token, in-process', () => {
  it('an empty or blank adminToken option is refused at construction (it would open every control)', () => {
    for (const token of ['', '   ', 'two words'])
      expect(() => createSandbox({ adminToken: token })).toThrow(/adminToken:/)
    expect(() => createSandbox({ adminToken: 'adm_ok' }).dispose()).not.toThrow()
  })
})

describe('HTML preview', () => {
  it('blocks remote content with a one-line banner inside the body, and ?remote=1 lifts both', async () => {
    const { message_id } = await (
      await api.call('POST', '/email/send', {
        to: 'a@example.com',
        subject: 's',
        html: '<!doctype html><html><body><p>Hi</p><img src="https://t.test/p.png"></body></html>',
      })
    ).json()
    const origin = new URL(api.base).origin
    const blocked = await fetch(`${origin}/__sandbox/messages/${message_id}/html`)
    expect(blocked.headers.get('content-security-policy')).toContain('img-src data: cid;'.replace(';', ''))
    const html = await blocked.text()
    expect(html.startsWith('<!doctype html><html><body><div data-sendbox-banner')).toBe(true)
    expect(html).toContain(`href="/__sandbox/messages/${message_id}/html?remote=1"`)
    const allowed = await fetch(`${origin}/__sandbox/messages/${message_id}/html?remote=1`)
    expect(allowed.headers.get('content-security-policy')).toContain('https:')
    expect(await allowed.text()).toBe(
      '<!doctype html><html><body><p>Hi</p><img src="https://t.test/p.png"></body></html>',
    )
  })
})

describe('seeded subscribers and sandbox.ready (documented in the README)', () => {
  it('HTTP requests wait for the seed by themselves; JS reads see it once ready resolves', async () => {
    const sandbox = createSandbox({ subscribers: 3 })
    const { getResponse } = await import('msw')
    const res = await getResponse(
      sandbox.handlers,
      new Request(`${sandbox.baseUrl}/subscribers`, { headers: { authorization: 'Bearer test_pro' } }),
    )
    expect((await res!.json()).pagination.total).toBe(3)
    await sandbox.ready
    expect(sandbox.subscribers.list(sandbox.accountOf('test_pro'), 1, 20).total).toBe(3)
    sandbox.dispose()
  })
})
