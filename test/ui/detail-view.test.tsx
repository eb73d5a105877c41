import { afterEach, describe, expect, it } from 'vitest'
import { cellWidth } from '../../src/ui/terminal/cells.js'
import { KEYS, mountUi, SAMPLES } from './ui-harness.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

/** The rows of the Links section, numbered entries joined back into whole URLs. */
function linksOf(frame: string): string[] {
  const lines = frame.split('\n')
  const start = lines.findIndex((l) => l.startsWith('── Links'))
  if (start === -1) return []
  const urls: string[] = []
  for (const line of lines.slice(start + 1)) {
    const numbered = /^\s*(\d+) (\S+)$/.exec(line)
    const more = /^\s+(\S+)$/.exec(line)
    if (numbered) urls.push(numbered[2])
    else if (more && urls.length > 0 && !line.includes(' of ')) urls[urls.length - 1] += more[1]
    else break
  }
  return urls
}

/** A labelled field of the detail, its wrapped rows joined. */
function fieldOf(frame: string, label: string): string {
  const lines = frame.split('\n')
  const at = lines.findIndex((l) => l.startsWith(label.padEnd(10)))
  let value = lines[at].slice(10)
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith(' '.repeat(10)) || line.trim() === '') break
    value += line.slice(10)
  }
  return value.trimEnd()
}

const RESET_LINK = `https://shop.example.com/account/reset-password?token=${'a1b2c3d4e5f6'.repeat(8)}&user=maria%40example.com`
const RESET = {
  to: 'maria@example.com',
  subject: 'Reset your password',
  from: { email: 'no-reply@shop.test', name: 'Shop' },
  html: `<h1>Password Reset</h1><p>Your code is 482913.</p><p><a href="${RESET_LINK}">Reset it</a> or see <a href="https://shop.example.com/help">help</a>.</p>`,
}

describe('detail view', () => {
  it('shows an email: from, to, subject, status history, its text with headings as written, codes and the preview URL', async () => {
    app = mountUi({ deliveryMs: 1_000 })
    const id = await app.send('email', { ...SAMPLES.email, from: { email: 'hello@shop.test', name: 'Shop' } })
    await app.waitFor((f) => f.includes('Welcome aboard'))
    app.clock.advance(2_000)
    app.sandbox.outbox.advance()
    await app.waitFor((f) => /Welcome aboard\s+delivered/.test(f))
    await app.press(KEYS.enter)
    const frame = app.frame()
    expect(frame).toContain(`EMAIL  ${id}  delivered`)
    expect(frame).toMatch(/From\s+Shop <hello@shop\.test>/)
    expect(frame).toMatch(/To\s+ana@example\.com/)
    expect(frame).toMatch(/Subject\s+Welcome aboard/)
    expect(frame).toMatch(/Status\s+queued\s+\d\d:\d\d:\d\d\n\s+sent\s+\d\d:\d\d:\d\d\n\s+delivered\s+\d\d:\d\d:\d\d/)
    const token = app.sandbox.outbox.previewToken(id)!
    expect(fieldOf(frame, 'Preview')).toBe(`https://api.sendbox.test/__sandbox/messages/${id}/html?token=${token}`)
    // The text the domain made at capture, shown as it is: headings keep their case, never raw tags.
    expect(frame).toContain('Hello Ana')
    expect(frame).not.toContain('HELLO ANA')
    expect(frame).toContain('Thanks for joining. Get started [https://example.com/start]')
    expect(frame).toContain(' * First step')
    expect(frame).toMatch(/Plan\s+Price\nPro\s+\$10/)
    expect(frame).not.toMatch(/<\/?(h1|p|a|ul|li|table)\b/)
    // The header grew (checks, request, key rows): `l` brings the links into the window.
    await app.press('l')
    expect(linksOf(app.frame())).toEqual(['https://example.com/start'])
    // The URL really serves the email.
    const html = await fetch(`https://api.sendbox.test/__sandbox/messages/${id}/html?token=${token}`)
    expect(await html.text()).toContain(SAMPLES.email.html)
  })

  it('lists every link in full, wrapped and never cut, and shows the codes, at 80 columns', async () => {
    app = mountUi({ columns: 80, rows: 40 })
    await app.send('email', RESET)
    await app.waitFor((f) => f.includes('Reset your password'))
    await app.press(KEYS.enter)
    const frame = app.frame()
    expect(frame).toMatch(/Codes\s+482913\s+y copies the first/)
    expect(frame).toContain('Password Reset')
    expect(frame).toContain('── Links (2)')
    expect(linksOf(frame)).toEqual([RESET_LINK, 'https://shop.example.com/help'])
    expect(frame).not.toMatch(/a1b2…|…a1b2/)
    for (const line of frame.split('\n')) expect(cellWidth(line)).toBeLessThanOrEqual(80)
  })

  it('shows an SMS: every line, emoji and all, wrapped by cells, with length, encoding and segments', async () => {
    app = mountUi({ columns: 40, rows: 30 })
    const text = 'Hi 👋 Ana! 🎉 Your code is 123456 ✅ 日本語のテキスト\nSecond line 👨‍👩‍👧 stays'
    await app.send('sms', { to: '+14155550123', message: text, from: 'Shop' })
    await app.waitFor((f) => f.includes('+1415'))
    await app.press(KEYS.enter)
    const frame = app.frame()
    expect(frame).toMatch(/From\s+Shop/)
    expect(frame).toMatch(/Encoding\s+UCS-2/)
    const start = frame.split('\n').findIndex((l) => l.startsWith('── Text'))
    const body = frame
      .split('\n')
      .slice(start + 1)
      .filter((l) => l.trim() !== '')
      .slice(0, -1)
    for (const line of body) expect(cellWidth(line)).toBeLessThanOrEqual(40)
    expect(body.join(' ').replace(/\s+/g, ' ')).toContain(text.replace(/\n/g, ' ').replace(/\s+/g, ' '))
  })

  it('shows a WhatsApp message: template, language and a table of parameters', async () => {
    app = mountUi()
    await app.send('whatsapp', SAMPLES.whatsapp)
    await app.waitFor((f) => f.includes('order_update'))
    await app.press(KEYS.enter)
    const frame = app.frame()
    expect(frame).toMatch(/Template\s+order_update/)
    expect(frame).toMatch(/Language\s+en_US/)
    expect(frame).toContain('Parameters (2)')
    expect(frame).toMatch(/NAME\s+VALUE\nname\s+Ana\norder\s+#1042/)
  })

  it('goes back to the list with Esc, Backspace and ←', async () => {
    app = mountUi()
    await app.send('sms', SAMPLES.sms)
    await app.waitFor((f) => f.includes('Your code'))
    for (const back of [KEYS.escape, KEYS.backspace, KEYS.left]) {
      await app.press(KEYS.enter)
      expect(app.frame()).toContain('Encoding')
      await app.press(back)
      expect(app.frame()).toContain('SUBJECT / TEXT / TEMPLATE')
    }
  })

  it('scrolls a long body with j/k and PgDn, showing where it is', async () => {
    app = mountUi({ rows: 24, columns: 80 })
    const items = Array.from({ length: 60 }, (_, i) => `<li>item ${i + 1}</li>`).join('')
    await app.send('email', { to: 'ana@example.com', subject: 'Long', html: `<ul>${items}</ul>` })
    await app.waitFor((f) => f.includes('Long'))
    await app.press(KEYS.enter)
    let frame = app.frame()
    expect(frame).toContain('EMAIL  msg_')
    expect(frame).not.toContain('item 60')
    expect(frame).toMatch(/1–18 of \d+/)
    await app.press('j')
    frame = app.frame()
    expect(frame).not.toContain('EMAIL  msg_')
    expect(frame).toMatch(/2–19 of \d+/)
    await app.press(KEYS.pageDown, KEYS.pageDown, KEYS.pageDown, KEYS.pageDown)
    expect(app.frame()).toContain('item 60')
    await app.press('g')
    expect(app.frame()).toContain('EMAIL  msg_')
  })

  it('o opens the preview (with its token) in the browser, and prints the URL in full when there is none', async () => {
    app = mountUi({ columns: 60, rows: 30, browser: false, adminToken: 'adm_9f8e7d6c5b4a39281706f5e4d3c2b1a0' })
    const id = await app.send('email', RESET)
    await app.waitFor((f) => f.includes('Reset your'))
    await app.press(KEYS.enter, 'o')
    const url = `https://api.sendbox.test/__sandbox/messages/${id}/html?token=${app.sandbox.outbox.previewToken(id)}`
    expect(app.opened).toEqual([url])
    const frame = await app.waitFor((f) => f.includes('No browser to open here.'), 'the no-browser notice')
    const footer = frame
      .split('\n')
      .slice(frame.split('\n').findIndex((l) => l.startsWith('No browser')))
      .join('')
    expect(footer).toContain(url)
    // /__sandbox needs the admin token here, and the preview URL opens without it.
    expect((await fetch(`https://api.sendbox.test/__sandbox/messages/${id}`)).status).toBe(401)
    const preview = await fetch(url)
    expect(preview.status).toBe(200)
    expect(await preview.text()).toContain('<h1>Password Reset</h1>')
  })

  it('1–9 open link N; y copies the first code; Y then a digit copies that link; the footer says so', async () => {
    app = mountUi()
    await app.send('email', RESET)
    await app.waitFor((f) => f.includes('Reset your'))
    await app.press(KEYS.enter, '2')
    expect(app.opened).toEqual(['https://shop.example.com/help'])
    expect(await app.waitFor((f) => f.includes('Opening link 2'))).toContain('https://shop.example.com/help')
    await app.press('9')
    expect(app.frame()).toContain('There is no link 9 (this message has 2).')
    await app.press('y')
    expect(app.copied).toEqual(['482913'])
    expect(app.frame()).toContain('Copied code 482913 to the clipboard (OSC 52).')
    await app.press('Y')
    expect(app.frame()).toContain('Copy which link? 1–9')
    await app.press('1')
    expect(app.copied).toEqual(['482913', RESET_LINK])
    expect(app.frame()).toContain('Copied link 1 to the clipboard (OSC 52)')
  })

  it('v toggles the text and the HTML source', async () => {
    app = mountUi()
    await app.send('email', RESET)
    await app.waitFor((f) => f.includes('Reset your'))
    await app.press(KEYS.enter)
    expect(app.frame()).toContain('── Text (v: HTML source)')
    await app.press('v')
    let frame = app.frame()
    expect(frame).toContain('── HTML source (v: text)')
    expect(frame).toContain('<h1>Password Reset</h1><p>Your code is 482913.</p>')
    await app.press('v')
    frame = app.frame()
    expect(frame).toContain('Password Reset')
    expect(frame).not.toContain('<h1>')
  })

  it('d deletes the open message after y, and keeps it on any other answer', async () => {
    app = mountUi()
    const id = await app.send('sms', SAMPLES.sms)
    await app.waitFor((f) => f.includes('Your code'))
    await app.press(KEYS.enter, 'd')
    expect(app.frame()).toMatch(new RegExp(`Delete ${id} \\(to \\+14155550123\\)\\?\\s+y/n`))
    await app.press('n')
    expect(app.frame()).toContain('Kept the message.')
    expect(app.sandbox.outbox.get(id)).toBeDefined()
    await app.press('d', 'y')
    expect(app.sandbox.outbox.get(id)).toBeUndefined()
    const frame = await app.waitFor((f) => f.includes('No messages yet'))
    expect(frame).toContain(`Deleted ${id}`)
  })

  it('follows the open message live and says so when it is gone', async () => {
    app = mountUi()
    await app.send('sms', SAMPLES.sms)
    await app.waitFor((f) => f.includes('Your code'))
    await app.press(KEYS.enter)
    expect(app.frame()).toMatch(/SMS  msg_\w+  queued/)
    app.clock.advance(1_000)
    app.sandbox.outbox.advance()
    await app.waitFor(
      (f) => /SMS  msg_\w+  sent/.test(f) && /sent\s+\d\d:\d\d:\d\d/.test(f),
      'the sent step in the detail',
    )
    app.sandbox.outbox.clear()
    await app.waitFor((f) => f.includes('no longer in the outbox'))
  })

  it('neutralises control characters from clients instead of passing them to the terminal', async () => {
    app = mountUi()
    await app.send('email', {
      to: 'ana@example.com',
      subject: 'Hi\u001B[2J there\u001B]0;owned\u0007',
      html: '<p>ok\u001B[2J</p>',
    })
    await app.waitFor((f) => f.includes('Hi'))
    expect(app.ui.lastFrame()).not.toContain('\u001B[2J')
    expect(app.ui.lastFrame()).not.toContain('\u001B]0;')
    await app.press(KEYS.enter)
    expect(app.ui.lastFrame()).not.toContain('\u001B[2J')
    // Each sequence is gone whole, shown as one marker (src/domain/safe-text.ts).
    expect(app.frame()).toMatch(/Subject\s+Hi\ufffd there\ufffd/)
  })

  it('lets nothing from a message act on the terminal: the hostile payload list, in every field, in the list and the detail (issue 27)', async () => {
    const PAYLOADS = [
      '\u001b]0;title\u0007',
      '\u001b]2;title\u001b\\',
      '\u001b]8;;https://attacker.test\u0007shown.test\u001b]8;;\u0007',
      '\u001b]52;c;cm0gLXJmIH4=\u0007',
      '\u001b[2J\u001b[H',
      '\u001bP1$r\u001b\\',
      '\u009b2J\u009d0;x\u0007',
      'moc.\u202elive',
      'ana\u3164\u3164',
      'pay\u200bpal',
    ]
    const hostile = PAYLOADS.join(' ')
    app = mountUi({ columns: 160, rows: 60 })
    await app.send('email', {
      to: 'ana@example.com',
      subject: `S ${hostile}`,
      from: { email: 'x@shop.test', name: `N ${hostile}` },
      html: `<p>T ${hostile}</p><a href="https://acme.test/a\u001b]8;;https://attacker.test\u0007b">l</a><a href="https://acme.test/c\nrm -rf ~">m</a>`,
    })
    await app.send('sms', { to: '+14155550123', message: `M ${hostile}` })
    await app.send('whatsapp', {
      to: '+14155550123',
      template: 'order_update',
      language: 'en',
      parameters: { name: hostile },
    })
    await app.waitFor((f) => f.includes('EMAIL 1   SMS 1   WHATSAPP 1'))
    /** What may reach the terminal: SGR colours, and OSC 8 hyperlinks whose target is plain. */
    const check = (raw: string, where: string) => {
      const withoutSgr = raw.replace(/\u001b\[[0-9;]*m/g, '')
      const links = [...withoutSgr.matchAll(/\u001b\]8;;([^\u0007\u001b]*)\u0007/g)].map((m) => m[1])
      for (const target of links) expect(target, where).not.toMatch(/[\u0000-\u001f\u007f-\u009f\s]/)
      const rest = withoutSgr.replace(/\u001b\]8;;[^\u0007\u001b]*\u0007/g, '')
      // eslint-disable-next-line no-control-regex
      expect(
        rest.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u3164\u200b]/g) ?? [],
        where,
      ).toEqual([])
    }
    check(app.ui.lastFrame() ?? '', 'the list')
    for (let i = 0; i < 3; i++) {
      await app.press(KEYS.enter)
      const raw = app.ui.lastFrame() ?? ''
      check(raw, `detail ${i + 1}`)
      // Each sequence is gone whole (src/domain/safe-text.ts): its marker shows, its text does not.
      expect(app.frame(), `detail ${i + 1}`).toContain('\ufffd')
      expect(app.frame(), `detail ${i + 1}`).not.toMatch(/\]0;title|52;c;/)
      await app.press(KEYS.escape)
      await app.press(KEYS.down)
    }
  })

  it('opens a hostile message (900 KB of non-breaking spaces) and shows its first screen, then its end', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('email', {
      to: 'ana@example.com',
      subject: 'Hostile',
      html: `<p>start ${'\u00a0'.repeat(450_000)} end</p>`,
    })
    await app.waitFor((f) => f.includes('Hostile'))
    await app.press(KEYS.enter)
    expect(app.frame()).toContain('── Text (v: HTML source)')
    await app.press('G')
    const end = await app.waitFor((f) => /\bend\b/.test(f) && /of [\d,]+ {2}\?/.test(f), 'the end of the body', 15_000)
    expect(end).toMatch(/–[\d,]+ of [\d,]+ {2}\? help/)
  })
})
