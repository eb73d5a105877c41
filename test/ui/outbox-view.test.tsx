import { afterEach, describe, expect, it } from 'vitest'
import { KEYS, mountUi, SAMPLES } from './ui-harness.js'
import { CHANNELS } from '../../src/contract/constants.js'
import { CHANNEL_BADGES } from '../../src/ui/terminal/channels/index.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

function rowOf(frame: string, text: string): string {
  const row = frame.split('\n').find((line) => line.includes(text))
  if (!row) throw new Error(`no row with "${text}" in:\n${frame}`)
  return row
}

describe('outbox view', () => {
  it('starts empty, telling the user where to point apps, with every key and its plan', async () => {
    app = mountUi()
    const frame = await app.waitFor((f) => f.includes('No messages yet'))
    expect(frame).toContain(`API ${app.base}`)
    expect(frame).toContain('test_starter  Starter  0/100 per min')
    expect(frame).toContain('test_pro  Pro  0/1,000 per min')
    expect(frame).toContain('test_enterprise  Enterprise  0/10,000 per min')
    expect(frame).toMatch(
      new RegExp(`${CHANNELS.map((c) => `${CHANNEL_BADGES[c].label} 0`).join('\\s+')}\\s+last message —`),
    )
  })

  it('masks configured keys in the header; only the public default test_ keys show in full', async () => {
    app = mountUi({ apiKeys: ['acme_live_secret_123:pro'] })
    const frame = await app.waitFor((f) => f.includes('per min'))
    expect(frame).toContain('ac…23  Pro  0/1,000 per min')
    expect(frame).not.toContain('acme_live_secret_123')
  })

  it('lists a message per channel, newest first, with badge, recipient, summary and status, and counts them', async () => {
    app = mountUi()
    await app.send('email', SAMPLES.email)
    await app.send('sms', SAMPLES.sms)
    await app.send('whatsapp', SAMPLES.whatsapp, 'test_starter')
    const frame = await app.waitFor((f) => f.includes('order_update'))
    const lines = frame.split('\n')
    const whatsapp = lines.findIndex((l) => l.includes('WHATSAPP  +14155550199'))
    const sms = lines.findIndex((l) => l.includes('SMS       +14155550123'))
    const email = lines.findIndex((l) => l.includes('EMAIL     ana@example.com'))
    expect(whatsapp).toBeGreaterThan(0)
    expect(sms).toBe(whatsapp + 1)
    expect(email).toBe(whatsapp + 2)
    expect(lines[whatsapp]).toMatch(/order_update \(en_US\): name=Ana, order=#1.*\s+queued$/)
    // Every line of a multi-line SMS, joined with ⏎.
    expect(lines[sms]).toMatch(/Your code is 123456 ⏎ It expires in 10 m.*\s+queued$/)
    expect(lines[email]).toMatch(/Welcome aboard\s+queued$/)
    // One of each sample's channel; any other channel shows 0.
    expect(frame).toMatch(/EMAIL 1\s+SMS 1\s+WHATSAPP 1\s+(?:[A-Z]+ 0\s+)*last message \d\d:\d\d:\d\d/)
    expect(frame).toContain('test_pro  Pro  2/1,000 per min')
    expect(frame).toContain('test_starter  Starter  1/100 per min')
    // Where the selection is, in the footer.
    expect(lines[lines.length - 1]).toMatch(/1 of 3 {2}\? help {2}q quit$/)
    await app.press('j')
    expect(app.frame().split('\n').at(-1)).toMatch(/2 of 3 {2}\? help/)
  })

  it('shows the date of messages from another day', async () => {
    app = mountUi()
    await app.send('sms', { to: '+14155550001', message: 'yesterday' })
    app.clock.advance(24 * 3_600_000)
    await app.send('sms', { to: '+14155550002', message: 'today' })
    const frame = await app.waitFor((f) => f.includes('today') && f.includes('yesterday'))
    expect(rowOf(frame, 'today')).toMatch(/^› \d\d:\d\d:\d\d {2}/)
    expect(rowOf(frame, 'yesterday')).toMatch(/^ {2}\d\d-\d\d \d\d:\d\d {2}SMS/)
  })

  it('shows status changes live: queued, sent, delivered, and failed for a magic recipient', async () => {
    app = mountUi()
    await app.send('sms', { to: '+15005550001', message: 'will fail' })
    await app.send('email', SAMPLES.email)
    await app.waitFor((f) => /will fail\s+queued/.test(f) && /Welcome aboard\s+queued/.test(f))
    app.clock.advance(1_000)
    app.sandbox.outbox.advance()
    await app.waitFor((f) => /will fail\s+sent/.test(f) && /Welcome aboard\s+sent/.test(f), 'sent')
    app.clock.advance(1_000)
    app.sandbox.outbox.advance()
    await app.waitFor(
      (f) => /will fail\s+failed/.test(f) && /Welcome aboard\s+delivered/.test(f),
      'failed and delivered',
    )
  })

  it('keeps the newest selected while on the top row, like tail -f', async () => {
    app = mountUi()
    await app.send('sms', { to: '+14155550001', message: 'first' })
    await app.waitFor((f) => f.includes('first') && rowOf(f, 'first').startsWith('›'))
    await app.send('sms', { to: '+14155550002', message: 'second' })
    const frame = await app.waitFor((f) => f.includes('second'))
    expect(rowOf(frame, 'second').startsWith('›')).toBe(true)
    expect(rowOf(frame, 'first').startsWith('›')).toBe(false)
  })

  it('stays on the same message once the user moved, as others arrive', async () => {
    app = mountUi()
    await app.send('sms', { to: '+14155550001', message: 'first' })
    await app.send('sms', { to: '+14155550002', message: 'second' })
    await app.waitFor((f) => f.includes('second'))
    await app.press('j')
    expect(rowOf(app.frame(), 'first').startsWith('›')).toBe(true)
    await app.send('sms', { to: '+14155550003', message: 'third' })
    const frame = await app.waitFor((f) => f.includes('third'))
    expect(rowOf(frame, 'first').startsWith('›')).toBe(true)
    expect(rowOf(frame, 'third').startsWith('›')).toBe(false)
    // Up twice reaches the top again, and following resumes.
    await app.press(KEYS.up, 'k')
    expect(rowOf(app.frame(), 'third').startsWith('›')).toBe(true)
    await app.send('sms', { to: '+14155550004', message: 'fourth' })
    expect(rowOf(await app.waitFor((f) => f.includes('fourth')), 'fourth').startsWith('›')).toBe(true)
  })

  it('moves with arrows and j/k, and G/g jump to the ends', async () => {
    app = mountUi()
    for (const n of [1, 2, 3]) await app.send('sms', { to: `+1415555000${n}`, message: `number ${n}` })
    await app.waitFor((f) => f.includes('number 3'))
    await app.press(KEYS.down)
    expect(rowOf(app.frame(), 'number 2').startsWith('›')).toBe(true)
    await app.press('j')
    expect(rowOf(app.frame(), 'number 1').startsWith('›')).toBe(true)
    await app.press('k')
    expect(rowOf(app.frame(), 'number 2').startsWith('›')).toBe(true)
    await app.press('G')
    expect(rowOf(app.frame(), 'number 1').startsWith('›')).toBe(true)
    await app.press('g')
    expect(rowOf(app.frame(), 'number 3').startsWith('›')).toBe(true)
  })

  it('filters by channel with 1, 2, 3 and shows all again with 0', async () => {
    app = mountUi()
    await app.send('email', SAMPLES.email)
    await app.send('sms', SAMPLES.sms)
    await app.send('whatsapp', SAMPLES.whatsapp)
    await app.waitFor((f) => f.includes('order_update'))
    const shown = (f: string) => ['Welcome aboard', 'Your code', 'order_update'].filter((t) => f.includes(t))
    await app.press('1')
    expect(shown(app.frame())).toEqual(['Welcome aboard'])
    expect(app.frame()).toContain('EMAIL only · 1 of 3')
    await app.press('2')
    expect(shown(app.frame())).toEqual(['Your code'])
    await app.press('3')
    expect(shown(app.frame())).toEqual(['order_update'])
    await app.press('0')
    expect(shown(app.frame())).toEqual(['Welcome aboard', 'Your code', 'order_update'])
  })

  it('searches recipient, subject and text with /, keeps it on Enter and clears it on Esc', async () => {
    app = mountUi()
    await app.send('email', SAMPLES.email)
    await app.send('email', { to: 'bob@example.com', subject: 'Invoice', html: '<p>x</p>' })
    await app.send('sms', { to: '+14155550123', message: 'Hello from the bakery' })
    await app.waitFor((f) => f.includes('bakery'))
    await app.press('/', 'b', 'o', 'b')
    let frame = app.frame()
    expect(frame).toContain('/bob')
    expect(frame).toContain('Invoice')
    expect(frame).not.toContain('Welcome aboard')
    await app.press(KEYS.enter)
    frame = app.frame()
    expect(frame).toContain('search "bob" · 1 of 3')
    expect(frame).not.toContain('Welcome aboard')
    await app.press(KEYS.escape)
    await app.waitFor((f) => f.includes('Welcome aboard') && !f.includes('search "'), 'search cleared')
    // Subject and SMS text are searched too, case-insensitively, and typed text may arrive in one read.
    await app.press('/', 'WELCOME', KEYS.enter)
    frame = app.frame()
    expect(frame).toContain('Welcome aboard')
    expect(frame).not.toContain('Invoice')
    await app.press(KEYS.escape, '/', 'bakery', KEYS.enter)
    frame = await app.waitFor((f) => f.includes('search "bakery"'))
    expect(frame).toContain('Hello from the bakery')
    expect(frame).not.toContain('Invoice')
  })

  it('searches the sender, the email body text and template parameters too', async () => {
    app = mountUi()
    await app.send('email', { ...SAMPLES.email, from: { email: 'billing@acme.test', name: 'Acme Billing' } })
    await app.send('email', { to: 'bob@example.com', subject: 'Plain', html: '<p>Your parcel is on its way</p>' })
    await app.send('whatsapp', { ...SAMPLES.whatsapp, parameters: { name: 'Zebedee', order: '#77' } })
    await app.waitFor((f) => f.includes('Plain') && f.includes('Zebedee'))
    const shown = (f: string) => ['Welcome aboard', 'Plain', 'order_update'].filter((t) => f.includes(t))
    await app.press('/', 'acme billing', KEYS.enter)
    expect(shown(app.frame())).toEqual(['Welcome aboard'])
    await app.press(KEYS.escape, '/', 'PARCEL', KEYS.enter)
    expect(shown(app.frame())).toEqual(['Plain'])
    await app.press(KEYS.escape, '/', 'zebedee', KEYS.enter)
    expect(shown(app.frame())).toEqual(['order_update'])
  })

  it('s cycles the status filter: queued, sent, delivered, failed, all', async () => {
    app = mountUi()
    await app.send('sms', { to: '+15005550001', message: 'will fail' })
    await app.send('sms', { to: '+14155550123', message: 'will arrive' })
    app.clock.advance(2_000)
    app.sandbox.outbox.advance()
    await app.send('sms', { to: '+14155550124', message: 'still queued' })
    await app.waitFor(
      (f) => /will fail\s+failed/.test(f) && /will arrive\s+delivered/.test(f) && f.includes('still queued'),
    )
    const shown = (f: string) => ['will fail', 'will arrive', 'still queued'].filter((t) => f.includes(t))
    await app.press('s')
    expect(shown(app.frame())).toEqual(['still queued'])
    expect(app.frame()).toContain('queued · 1 of 3')
    await app.press('s')
    expect(app.frame()).toContain('No message matches. Esc clears the filters.')
    await app.press('s')
    expect(shown(app.frame())).toEqual(['will arrive'])
    await app.press('s')
    expect(shown(app.frame())).toEqual(['will fail'])
    await app.press('s')
    expect(shown(app.frame())).toEqual(['will fail', 'will arrive', 'still queued'])
    await app.press('s', KEYS.escape)
    expect(shown(app.frame())).toHaveLength(3)
  })
})
