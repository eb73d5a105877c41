import { afterEach, describe, expect, it } from 'vitest'
import { KEYS, mountUi } from './ui-harness.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

/** Issue 33, item 3: QA without curl, in the terminal UI. */
describe('terminal UI: QA without curl', () => {
  it('simulates STOP on an SMS, finds the opt-out and removes it (R STOP Enter · O · x)', async () => {
    app = mountUi({ columns: 120, rows: 30 })
    await app.send('sms', { to: '+14155550123', message: 'Your code is 123456' })
    await app.waitFor((f) => f.includes('Your code is 123456'))
    await app.press(KEYS.enter, 'R', 'S', 'T', 'O', 'P')
    expect(app.frame()).toContain('Reply from +14155550123: STOP')
    await app.press(KEYS.enter)
    await app.waitFor((f) => f.includes('is opted out of'))
    expect(app.sandbox.optOuts.list()).toMatchObject([{ number: '+14155550123', keyword: 'STOP' }])
    await app.press(KEYS.escape)
    // The reply is listed by its sender, marked as an opt-out.
    const list = await app.waitFor((f) => f.includes('↩ STOP'))
    expect(list).toMatch(/← \+14155550123\s+↩ STOP · opt-out/)
    await app.press('O')
    const page = await app.waitFor((f) => f.includes('OPT-OUTS'))
    expect(page).toMatch(/› \+14155550123\s+STOP\s+acct_\w+ \(test_pro · Pro\)/)
    await app.press('x')
    await app.waitFor((f) => f.includes('opted back in'))
    expect(app.sandbox.optOuts.size).toBe(0)
  })

  it('Tab from a message lands on its request, selected; Tab from a webhook attempt opens its message', async () => {
    app = mountUi({ columns: 120, rows: 30 })
    const first = await app.send('sms', { to: '+14155550123', message: 'first' })
    await app.send('email', { to: 'ana@example.com', subject: 'second', html: '<p>x</p>' })
    await app.waitFor((f) => f.includes('second'))
    await app.press('j', KEYS.enter)
    await app.waitFor((f) => f.includes('(Tab selects it)'))
    const request = app.sandbox.journal.list().find((e) => e.message_id === first)!
    await app.press(KEYS.tab)
    const selected = (await app.waitFor((f) => f.includes('ERROR CODE'))).split('\n').find((l) => l.startsWith('› '))
    expect(selected).toMatch(new RegExp(`^› #${request.id}\\s.*POST\\s+/v1/sms/send\\s+200`))
    await app.press(KEYS.enter)
    await app.waitFor((f) => f.includes('(Tab opens it)'))
    await app.press(KEYS.tab)
    await app.waitFor((f) => f.includes(first) && f.includes('first'))
  })

  it('w shows API requests or webhook attempts apart, and a refused request names its fault and keeps its body', async () => {
    app = mountUi({ columns: 120, rows: 40 })
    const fault = app.sandbox.faults.add({ status: 503, path: '/v1/sms/send', times: 1 })
    await app.call('POST', '/sms/send', { to: '+14155550123', message: 'refused' })
    await app.press(KEYS.tab)
    await app.waitFor((f) => f.includes('503'))
    await app.press('w')
    expect(app.frame()).toContain('API requests only')
    await app.press('w')
    expect(app.frame()).toContain('webhook attempts only')
    await app.press(KEYS.escape, KEYS.enter)
    const page = await app.waitFor((f) => f.includes('Request body'))
    expect(page).toContain(`Fault     ${fault.id}: an injected fault answered`)
    expect(page).toContain('"message": "refused"')
  })

  it('a filters the Outbox by account, naming its key and plan; the help page names accounts and the webhook secret', async () => {
    app = mountUi({
      columns: 140,
      rows: 40,
      apiKeys: { north_key: 'pro:north', south_key: 'starter:south' },
      webhook: { url: 'https://hooks.example.test/in', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    })
    await app.send('sms', { to: '+14155550123', message: 'from north' }, 'north_key')
    await app.send('sms', { to: '+14155550124', message: 'from south' }, 'south_key')
    await app.waitFor((f) => f.includes('from south'))
    await app.press('a')
    const north = await app.waitFor((f) => f.includes('account north (no…y · Pro)'))
    expect(north).toContain('from north')
    expect(north).not.toContain('from south')
    await app.press('?')
    const help = await app.waitFor((f) => f.includes('This sandbox'))
    expect(help).toMatch(/Account\s+south: so…y · Starter/)
    expect(help).toContain('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
  })
})
