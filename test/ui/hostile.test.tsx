import { afterEach, describe, expect, it } from 'vitest'
import { HOSTILE, HOSTILE_TEXT, hostileEmailHtml } from '../hostile-payloads.js'
import { KEYS, mountUi } from './ui-harness.js'

/**
 * Nothing a client puts in a message acts on the terminal: every frame Ink writes, list and
 * detail, is free of the hostile list's sequences; each removed run shows as one marker; what
 * `Y` copies is exactly the link the page shows.
 */
let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

const MARKER = '\ufffd'

/** What must never be in a frame (Ink's own colours are `ESC [ … m`, and no hyperlink is hostile). */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['OSC 0/2 (title)', /\u001b\][02];/],
  ['OSC 52 (clipboard)', /\u001b\]52;/],
  ['OSC 8 to the hidden target', /\u001b\]8;[^\u0007]*evil/],
  ['CSI clear screen', /\u001b\[2J/],
  ['DCS', /\u001bP/],
  ['BEL', /\u0007(?<!\u001b\]8;[^\u0007]*\u0007)/],
  ['C1', /[\u0080-\u009f]/],
  ['bidi control', /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/],
  ['invisible filler', /[\u3164\u115f\u1160\uffa0\u200b\u2060\ufeff]/],
]

function expectClean(frame: string | undefined): void {
  for (const [what, pattern] of FORBIDDEN) expect(pattern.test(frame ?? ''), what).toBe(false)
}

describe('hostile message content in the terminal UI', () => {
  it('list and email detail: no sequence reaches the terminal, each shows as one marker', async () => {
    app = mountUi({ columns: 160, rows: 45 })
    await app.send('email', {
      to: 'ana@example.com',
      from: { email: 'x@acme.example', name: `Acme${HOSTILE.rlo}` },
      subject: `Hi ${HOSTILE.osc0}${HOSTILE.csi} there ${HOSTILE.filler}`,
      html: hostileEmailHtml(),
    })
    await app.waitFor((f) => f.includes('Hi '))
    expectClean(app.ui.lastFrame())
    expect(app.frame()).toContain(`Hi ${MARKER} there a${MARKER}b`)
    await app.press(KEYS.enter)
    await app.waitFor((f) => f.includes('Subject'))
    for (const frame of app.ui.frames) expectClean(frame)
    const frame = app.frame()
    expect(frame).toMatch(new RegExp(`From\\s+Acme${MARKER}exe\\.txt <x@acme\\.example>`))
    expect(frame).toContain(`[osc8:${MARKER}click me${MARKER}]`)
    expect(frame).toContain(`[c1:${MARKER}]`)
    // html-to-text reads a zero-width space as a space; the SMS below keeps it (and shows a marker).
    expect(frame).toContain('[zwsp:pay pal]')
    // The OSC 8 target is in neither the text nor the links: links are found after escape
    // sequences are removed (issue 36, R18), and its target is no text.
    expect(frame).not.toContain('evil.example')
    expect(frame).toContain('1 https://acme.example/reset?token=abc')
    expect(frame).not.toContain('cm0gLXJmIH4')
  })

  it('links are serialized (the LF and the escape inside an href are gone or encoded) and Y copies exactly what is shown', async () => {
    app = mountUi({ columns: 160, rows: 45 })
    await app.send('email', { to: 'ana@example.com', subject: 'Links', html: hostileEmailHtml() })
    await app.waitFor((f) => f.includes('Links'))
    await app.press(KEYS.enter, 'l')
    const frame = await app.waitFor((f) => f.includes('── Links'))
    expectClean(app.ui.lastFrame())
    // The LF is gone, the OSC 52 sequence inside the href removed whole (issue 36, R18).
    const link = 'https://acme.example/reset?token=abc'
    expect(frame).toContain(`1 ${link}`)
    expect(frame).toContain('https://acme.example/plain')
    await app.press('Y', '1')
    expect(app.copied).toEqual([link])
    await app.press('1')
    expect(app.opened).toEqual([link])
  })

  it('SMS text and WhatsApp parameters', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('sms', { to: '+14155550123', message: `Code 482913 ${HOSTILE_TEXT}` })
    await app.send('whatsapp', {
      to: '+14155550199',
      template: 'order_update',
      language: 'en',
      parameters: { name: `Ana${HOSTILE.osc52}`, note: HOSTILE.rlo },
    })
    await app.waitFor((f) => f.includes('order_update'))
    expectClean(app.ui.lastFrame())
    await app.press(KEYS.enter)
    await app.waitFor((f) => f.includes('Template'))
    expectClean(app.ui.lastFrame())
    expect(app.frame()).toContain(`Ana${MARKER}`)
    await app.press(KEYS.escape, KEYS.down, KEYS.enter)
    await app.waitFor((f) => f.includes('Encoding'))
    expectClean(app.ui.lastFrame())
    expect(app.frame()).toContain(`[osc0:${MARKER}]`)
    expect(app.frame()).toContain(`[zwsp:pay${MARKER}pal]`)
    expect(app.frame()).toContain(`[rlo:${MARKER}exe.txt]`)
  })
})
