// The consumer suite: copied into a scratch project that installed the packed tarball beside
// msw 2 or 3 and vitest 4 or 5 (scripts/consumer-matrix.mjs), and run there under Node 20, 22 or
// 24. Everything here goes through the package's public entry points, as a user's tests would.
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSandbox, WaitTimeoutError } from 'sendbox'
import { matchers } from 'sendbox/matchers'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

expect.extend(matchers)

const API = 'https://api.example.com/v1'
const sandbox = createSandbox({ baseUrl: API, deliveryMs: 0 })
// One of the app's own handlers beside the sandbox's: both must keep working.
const server = setupServer(
  ...sandbox.handlers,
  http.get('https://app.example.com/health', () => HttpResponse.json({ ok: true })),
)
const headers = { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' }

// No listen options: msw 3 renamed `onUnhandledRequest` to `onUnhandledFrame`, and this file type-checks under both.
beforeAll(() => server.listen())
afterEach(() => sandbox.reset())
afterAll(() => server.close())

function post(path: string, body: unknown) {
  return fetch(`${API}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
}

describe('in-process sandbox (the installed msw)', () => {
  it('captures an email: the anchor is links[0], the logo is in images, the code is extracted', async () => {
    const html =
      '<img src="https://cdn.example.com/logo.png" alt="Acme"><h1>Reset</h1><p>Your code is 482913.</p><a href="https://app.example.com/reset?token=abc">Reset your password</a>'
    const response = await post('/email/send', { to: 'ana@example.com', subject: 'Reset your password', html })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ success: true, status: 'queued' })

    const mail = await sandbox.outbox.waitFor({ channel: 'email', to: 'ana@example.com' }, { timeout: 2_000 })
    expect(mail.email.subject).toBe('Reset your password')
    expect(mail.links[0]).toBe('https://app.example.com/reset?token=abc')
    expect(mail.images).toEqual(['https://cdn.example.com/logo.png'])
    expect(mail.codes).toEqual(['482913'])
    expect(sandbox).toHaveSent({ channel: 'email', to: 'ana@example.com', text: /code is \d{6}/ })
    expect(sandbox).toHaveSentTimes({ channel: 'email' }, 1)
    expect(sandbox).not.toHaveSent({ channel: 'sms' })
    expect(sandbox).toHaveSentNothing({ channel: 'whatsapp' })
  })

  it('waits for an SMS that arrives later, and times out with the near misses named', async () => {
    const waiting = sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550123' }, { timeout: 2_000 })
    setTimeout(() => void post('/sms/send', { to: '+14155550123', message: 'Your code is 1234' }), 50)
    expect((await waiting).codes).toEqual(['1234'])

    await post('/sms/send', { to: '+14155550999', message: 'Someone else' })
    const missed = await sandbox.outbox
      .waitFor({ channel: 'sms', to: '+14155550000' }, { timeout: 100 })
      .catch((error: unknown) => error)
    expect(missed).toBeInstanceOf(WaitTimeoutError)
    expect((missed as Error).message).toContain('+14155550999')
  })

  it('matches paths exactly as the real API: case, trailing slash and escapes are other paths', async () => {
    for (const path of ['/SMS/send', '/sms/send/', '/sm%73/send', '/Subscribers']) {
      const response = await post(path, { to: '+14155550123', message: 'x' })
      expect(response.status, path).toBe(404)
      expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe('not_found')
    }
    const missing = await fetch(`${API}/subscribers/sub_%zz`, { headers })
    expect(missing.status).toBe(404)
    expect(sandbox.outbox.list()).toEqual([])
  })

  it("applies a fault armed on the exact path, and the app's own handler still answers", async () => {
    sandbox.faults.add({ status: 503, path: '/v1/sms/send', times: 1 })
    expect((await post('/sms/send', { to: '+14155550123', message: 'x' })).status).toBe(503)
    expect((await post('/sms/send', { to: '+14155550123', message: 'x' })).status).toBe(200)
    expect(await (await fetch('https://app.example.com/health')).json()).toEqual({ ok: true })
  })

  it("answers validation errors in the API's error shape", async () => {
    const response = await post('/email/send', { to: 'not-an-address', subject: 'x', html: 'x' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_email', param: 'to' } })
  })
})
