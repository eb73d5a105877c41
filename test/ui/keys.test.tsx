import { afterEach, describe, expect, it } from 'vitest'
import { KEYS, mountUi, SAMPLES } from './ui-harness.js'
import { CHANNELS } from '../../src/contract/constants.js'
import { CHANNEL_BADGES } from '../../src/ui/terminal/channels/index.js'
import { CHANNEL_KEYS_LABEL } from '../../src/ui/terminal/keys.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

describe('keys', () => {
  it('c clears the outbox after y, and keeps it on any other answer', async () => {
    app = mountUi()
    await app.send('email', SAMPLES.email)
    await app.send('sms', SAMPLES.sms)
    await app.waitFor((f) => f.includes('Your code'))
    await app.press('c')
    expect(app.frame()).toMatch(/Clear all 2 messages from the outbox\?\s+y\/n/)
    await app.press('n')
    expect(app.frame()).toContain('Kept the outbox.')
    expect(app.sandbox.outbox.size).toBe(2)
    await app.press('c', 'y')
    expect(app.sandbox.outbox.size).toBe(0)
    const frame = await app.waitFor((f) => f.includes('No messages yet'))
    expect(frame).toContain('Outbox cleared (2 messages).')
    expect(frame).toMatch(new RegExp(CHANNELS.map((c) => `${CHANNEL_BADGES[c].label} 0`).join('\\s+')))
  })

  it('r resets the whole sandbox after y: outbox, journal, rate-limit use, subscribers', async () => {
    app = mountUi({ subscribers: 2 })
    await app.send('email', SAMPLES.email)
    await app.call('POST', '/subscribers', { email: 'new@example.com' })
    await app.waitFor((f) => f.includes('test_pro  Pro  2/1,000 per min') && f.includes('Welcome aboard'))
    await app.press('r')
    // The question lists everything a reset clears (the contract's RESET_SCOPES), over two rows at 100 columns.
    expect(app.frame().replace(/\s+/g, ' ')).toMatch(
      /Reset the sandbox\? Clears subscribers \(back to the seeded ones\), outbox, rate-limit windows, faults, request journal, opt-outs and webhook attempts\. y\/n/,
    )
    await app.press('x')
    expect(app.frame()).toContain('Did not reset.')
    expect(app.sandbox.outbox.size).toBe(1)
    await app.press('r', 'y')
    const frame = await app.waitFor((f) => f.includes('Sandbox reset'), 'the reset notice')
    expect(frame).toContain('No messages yet')
    expect(frame).toContain('test_pro  Pro  0/1,000 per min')
    expect(app.sandbox.journal.size).toBe(0)
    const list = (await (await app.call('GET', '/subscribers')).json()) as { pagination: { total: number } }
    expect(list.pagination.total).toBe(2)
  })

  it('q quits once, through onQuit', async () => {
    app = mountUi()
    await app.press('q')
    expect(app.onQuit).toHaveBeenCalledTimes(1)
    await app.press('q')
    expect(app.onQuit).toHaveBeenCalledTimes(1)
  })

  it('Ctrl-C quits even while typing a search', async () => {
    app = mountUi()
    await app.press('/', 'a', KEYS.ctrlC)
    expect(app.onQuit).toHaveBeenCalledTimes(1)
  })

  it('? shows the full help and any key closes it', async () => {
    app = mountUi()
    await app.press('?')
    const frame = app.frame()
    for (const text of [
      'Keys',
      'Enter',
      'open the selected message',
      'Tab',
      CHANNEL_KEYS_LABEL,
      'search recipient, sender, subject, text',
      'clear the outbox (asks y/n)',
      'reset the sandbox',
      'cycle the status filter',
      'errors only',
    ]) {
      expect(frame).toContain(text)
    }
    // Taller than the screen: it scrolls, and any other key closes it.
    await app.press('G')
    expect(app.frame()).toContain('q  Ctrl-C')
    expect(app.frame()).toContain('delete this message (asks y/n)')
    await app.press('x')
    expect(app.frame()).not.toContain('open the selected message')
    expect(app.frame()).toContain('SUBJECT / TEXT / TEMPLATE')
    expect(app.onQuit).not.toHaveBeenCalled()
  })

  it('the footer lists the keys of the current view', async () => {
    app = mountUi()
    app.resize(160, 30)
    await app.waitFor((f) => f.split('\n')[0].length > 100, 'a wide frame')
    expect(app.frame()).toMatch(
      new RegExp(
        `↑↓ move {2}⏎ open {2}/ search {2}s status {2}${CHANNEL_KEYS_LABEL} channel {2}a account {2}O opt-outs {2}c clear {2}r reset {2}Tab requests\\s+\\? help {2}q quit`,
      ),
    )
    await app.press(KEYS.tab)
    expect(app.frame()).toMatch(/↑↓ move {2}⏎ open {2}e errors only {2}w API\/webhooks {2}Tab outbox/)
    await app.send('sms', SAMPLES.sms)
    await app.press(KEYS.tab)
    await app.waitFor((f) => f.includes('Your code'))
    await app.press(KEYS.enter)
    expect(app.frame()).toMatch(
      /Esc back {2}Tab its request {2}R reply {2}↑↓ scroll {2}o browser {2}1-9 open link {2}y copy code/,
    )
  })

  it('reads Esc and a key that arrive together (Alt+key, as tmux sends them) as Esc, then the key', async () => {
    app = mountUi()
    for (const n of [1, 2, 3]) await app.send('sms', { to: `+1415555000${n}`, message: `number ${n}` })
    await app.waitFor((f) => f.includes('number 3'))
    await app.press(KEYS.enter)
    expect(app.frame()).toContain('Encoding')
    await app.press(`${KEYS.escape}j`)
    await app.waitFor(
      (f) => !f.includes('Encoding') && (f.split('\n').find((l) => l.startsWith('›')) ?? '').includes('number 2'),
      'the list, one row down',
    )
    await app.press(KEYS.enter)
    await app.press(`${KEYS.escape}${KEYS.tab}`)
    await app.waitFor((f) => f.includes('ERROR CODE'), 'the requests view')
  })

  it('handles keys that arrive faster than the screen redraws against the state the previous key left', async () => {
    app = mountUi()
    for (const n of [1, 2, 3]) await app.send('sms', { to: `+1415555000${n}`, message: `number ${n}` })
    await app.waitFor((f) => f.includes('number 3'))
    await app.press('j', KEYS.enter)
    expect(app.frame()).toContain('+14155550002')
    // Back, to the top, open: written back to back, with no chance to render in between.
    app.ui.stdin.write(KEYS.backspace)
    app.ui.stdin.write('g')
    app.ui.stdin.write(KEYS.enter)
    await app.waitFor((f) => f.includes('Encoding') && f.includes('+14155550003'), 'the detail of the newest message')
  })

  it('replays several keys that arrive in one read (fast typing, tmux send-keys) one by one', async () => {
    app = mountUi()
    for (const n of [1, 2, 3]) await app.send('sms', { to: `+1415555000${n}`, message: `number ${n}` })
    await app.waitFor((f) => f.includes('number 3'))
    await app.press(`jj${KEYS.enter}`)
    await app.waitFor((f) => f.includes('Encoding') && f.includes('+14155550001'), 'the detail of the third message')
  })
})
