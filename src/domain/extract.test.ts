import { beforeAll, describe, expect, it } from 'vitest'
import {
  FULL_RENDER_LIMIT,
  findCodes,
  htmlToText,
  linksInHtml,
  linksInText,
  loadHtmlTools,
  renderEmail,
  renderEmailInTurns,
} from './extract.js'

beforeAll(() => loadHtmlTools())

/** [message, codes a person would read in it]. SMS-style texts unless noted. */
const CODE_CASES: ReadonlyArray<readonly [string, string[]]> = [
  // OTPs and verification codes
  ['Your verification code is 482913. It expires in 10 minutes.', ['482913']],
  ['482913 is your Acme verification code.', ['482913']],
  ['Use code 4829 to sign in to Acme.', ['4829']],
  ['Your Acme OTP: 73920184. Do not share it with anyone.', ['73920184']],
  ['Acme: your one-time passcode is 551200 (valid 5 min)', ['551200']],
  ['PIN: 2024', ['2024']],
  ['Your PIN is 0042. Never share it.', ['0042']],
  ['Your login code: X7K9P2', ['X7K9P2']],
  ['Verification token A1B2C3D4E5 — paste it into the app.', ['A1B2C3D4E5']],
  ['G-482913 is your Google verification code.', []], // G-prefixed: glued to a letter and a dash, read as one token
  ['Your 2FA code: 991 is not it; the code is 776655', ['776655']],
  ['Tu código de verificación es 839201', ['839201']],
  ['Votre code de vérification : 120934', ['120934']],
  ['Ihr Bestätigungscode lautet 448201.', ['448201']],
  ['Il tuo codice è 902118', ['902118']],
  ['Twój kod weryfikacyjny: 330912', ['330912']],
  ['Ваш код подтверждения: 582014', ['582014']],
  ['您的验证码是 602913，5分钟内有效。', ['602913']],
  ['認証コード：481920', ['481920']],
  ['[Acme] 인증번호 [739201]을 입력해 주세요.', ['739201']],
  ['Your temporary password is QX4T9Z. Change it after signing in.', ['QX4T9Z']],
  ["Security code 8821 for your card ending 4242 — if this wasn't you, call us.", ['8821']],
  ['Enter 123456 and 654321? Only the code 123456 works.', ['123456']],
  // The only number of a short SMS
  ['Acme login: 482913', ['482913']],
  ['Welcome back! 7391', ['7391']],
  // Password resets and sign-in links: the link is the secret, not a code
  ['Reset your password: https://acme.test/reset?token=8f3a9b2c4d&uid=123456', []],
  ['Click https://acme.test/verify/482913 to verify your email.', []],
  // Order notices, receipts, shipping: numbers that are not codes
  ['Order #104213 confirmed. Total $129.99. Arrives Nov 24, 2026.', []],
  ['Your order 48291 has shipped. Tracking code 1Z999AA10123456784.', []],
  ['Your order has shipped! Track it at https://ship.test/t/99881234', []],
  ['Payment of 1500 USD received on 2026-11-22 at 14:30.', []],
  ['Receipt: 3 items, €49,90. Thanks for shopping with Acme in 2026!', []],
  ['Your appointment is on 12/03/2026 at 09:30. Call +1 415 555 0123 to reschedule.', []],
  ['Call us at (415) 555-0123 or 0800 123 4567.', []],
  ['Your balance is 2450.75 EUR.', []],
  // Marketing
  ['Black Friday: 50% off everything until 2026! Use promo code SAVE2026 at checkout.', []],
  ['Get 20% off with discount code WELCOME10.', []],
  ['Summer sale: 3000 products from 9.99. Reply STOP to opt out.', []],
  ['New in 2026: the Acme app. Download now at https://acme.test/app', []],
  ['Zip code 94103 is not covered yet.', []],
  // Only-number rule does not apply to years, prices or several numbers
  ['See you in 2026', []],
  ['Your code expires in 10 minutes', []],
  ['Meeting moved to room 4012 on floor 4', []],
]

describe('findCodes', () => {
  it.each(CODE_CASES)('%s', (text, expected) => {
    expect(findCodes(text, { onlyNumberCounts: text.length <= 160 })).toEqual(expected)
  })

  it('has at least 40 real-looking cases with negatives', () => {
    expect(CODE_CASES.length).toBeGreaterThanOrEqual(40)
    expect(CODE_CASES.filter(([, codes]) => codes.length === 0).length).toBeGreaterThanOrEqual(15)
  })

  it('reads an email code standing alone on the line after its keyword, but not a number inside the next sentence', () => {
    const boxed = htmlToText(
      '<h1>Confirm your email</h1><p>Your verification code:</p><p><strong>582930</strong></p><p>© 2026 Acme Inc.</p>',
    )
    expect(findCodes(boxed)).toEqual(['582930'])
    expect(findCodes(htmlToText('<p>Your verification code: <strong>582930</strong></p><p>© 2026 Acme</p>'))).toEqual([
      '582930',
    ])
    expect(findCodes('Enter the code we sent.\nOrder 482913 ships tomorrow.')).toEqual([])
  })

  it('is linear on a long run of letters, digits or @-less words (no backtracking pattern)', () => {
    for (const text of ['x'.repeat(300_000), 'A1'.repeat(150_000), 'codecode '.repeat(30_000), 'a.b-'.repeat(75_000)]) {
      const started = performance.now()
      findCodes(text, { onlyNumberCounts: true })
      linksInText(text)
      expect(performance.now() - started).toBeLessThan(15_000)
    }
  })

  it('is linear on hostile input (1 MiB of digits and keywords)', () => {
    const text = 'code 1234 '.repeat(100_000)
    const started = performance.now()
    const codes = findCodes(text)
    expect(codes).toEqual(['1234'])
    // Not a timing assertion: a backtracking pattern would not finish at all within the test timeout.
    expect(performance.now() - started).toBeLessThan(20_000)
  })
})

describe('htmlToText', () => {
  it('keeps headings as written and drops markup', () => {
    const text = htmlToText('<h1>Welcome, Ana</h1><h2>Your Account</h2><p>Thanks for <b>joining</b>.</p>')
    expect(text).toContain('Welcome, Ana')
    expect(text).toContain('Your Account')
    expect(text).not.toContain('WELCOME')
    expect(text).toContain('Thanks for joining.')
  })

  it('shows links with their URL and images by their alt text, never a data: URI', () => {
    const text = htmlToText(
      `<p><a href="https://acme.test/r?a=1&amp;b=2">Reset</a></p><img alt="Logo" src="data:image/png;base64,${'A'.repeat(5000)}">`,
    )
    expect(text).toContain('Reset [https://acme.test/r?a=1&b=2]')
    expect(text).toContain('[image: Logo]')
    expect(text).not.toContain('AAAA')
  })

  it('reads past a hostile nesting roughly: 900 KB of unclosed tables, then a link and a code', () => {
    const tail = '<p>Your code is 482913. <a href="https://tail.example/done">Done</a></p>'
    for (const html of [`${'<table><tr><td>'.repeat(60_000)}${tail}`, `${'<b>'.repeat(4_000)}${tail}`]) {
      const { text, links } = renderEmail(html)
      expect(links).toEqual(['https://tail.example/done'])
      expect(findCodes(text)).toEqual(['482913'])
      expect(text.length).toBeLessThan(html.length)
      // Stopped between tags: no half of one is left in the text.
      expect(text).not.toMatch(/[<>]/)
    }
  })

  it('derives a large body in turns of the event loop, to the same text and links', async () => {
    const tail = '<p>Your code is 482913. <a href="https://tail.example/done">Done</a></p>'
    for (const html of [`${'<p>'.repeat(300_000)}${tail}`, `${'<table><tr><td>'.repeat(60_000)}${tail}`]) {
      let turns = 0
      let done = false
      const tick = () => {
        turns++
        if (!done) setImmediate(tick)
      }
      setImmediate(tick)
      const inTurns = await renderEmailInTurns(html)
      done = true
      expect(inTurns).toEqual(renderEmail(html))
      expect(inTurns.links).toEqual(['https://tail.example/done'])
      // 900 KB of <p> parsed 64 KB a turn: the loop turned while it was read (the tables stop
      // at the depth limit within the first turn).
      if (html.startsWith('<p>')) expect(turns).toBeGreaterThanOrEqual(10)
    }
  })

  it('survives 1 MiB of non-breaking spaces', () => {
    const text = htmlToText(`<p>${'\u00a0'.repeat(1024 * 1024)}x</p>`)
    expect(text.endsWith('x')).toBe(true)
  })
})

describe('links', () => {
  it('takes the clickable links (href, URLs in text) in order, de-duplicated, entities decoded; image sources apart', () => {
    const html = `
      <style>.x{background:url(https://evil.test/in-css.png)}</style>
      <a href="https://acme.test/verify?u=1&amp;t=abc">Verify</a>
      <img src="https://cdn.acme.test/logo.png" alt="Acme">
      <p>Or paste https://acme.test/verify?u=1&amp;t=abc into your browser.</p>
      <a href="mailto:help@acme.test">Help</a> <a href="/relative">rel</a>
      <a HREF='http://acme.test/unsubscribe'>Unsubscribe</a>`
    expect(linksInHtml(html)).toEqual(['https://acme.test/verify?u=1&t=abc', 'http://acme.test/unsubscribe'])
    expect(renderEmail(html).images).toEqual(['https://cdn.acme.test/logo.png'])
  })

  it('puts the anchor first even when a logo comes first (issue 23: links[0] went to the PNG)', () => {
    const html =
      '<img src="https://cdn.acme.test/logo.png" alt="Acme"><area href="https://acme.test/map" alt="map"><a href="https://acme.test/reset?t=1">Reset</a>'
    expect(renderEmail(html)).toMatchObject({
      links: ['https://acme.test/map', 'https://acme.test/reset?t=1'],
      images: ['https://cdn.acme.test/logo.png'],
    })
  })

  it('stores each link as its URL serialisation: no raw control, space or newline survives (issue 27, N3/N8)', () => {
    const html =
      '<a href="https://shown.test/a\u001b]8;;https://attacker.test\u0007b">x</a><a href="https://acme.test/pa th?q=a b">y</a><a href="https://acme.test/x\ny">z</a><a href=" https://acme.test/t\u202eab ">w</a>'
    const { links } = renderEmail(html)
    expect(links).toEqual([
      'https://shown.test/ab',
      'https://acme.test/pa%20th?q=a%20b',
      'https://acme.test/xy',
      'https://acme.test/t%E2%80%AEab',
    ])
    for (const link of links) expect(link).not.toMatch(/[\u0000-\u0020\u007f-\u009f\u202a-\u202e]/)
    // The text shows each link's URL as links holds it, in both renderings.
    expect(renderEmail(html).text).toContain('z [https://acme.test/xy]')
    expect(renderEmail(`${html}${'<p>filler</p>'.repeat(FULL_RENDER_LIMIT / 10)}`).text).toContain(
      'z [https://acme.test/xy]',
    )
    // Escape sequences and controls are removed before links are found (issue 36, R18): ESC and
    // BEL never become part of one, and an OSC 8 target (shown.test above) is no link.
    expect(linksInText('see https://acme.test/a\u001b[2Jb and https://acme.test/c\u0007d')).toEqual([
      'https://acme.test/ab',
      'https://acme.test/cd',
    ])
  })

  it('finds URLs in SMS text, trimming sentence punctuation but keeping balanced parentheses', () => {
    expect(linksInText('Reset: https://acme.test/r/abc123. Or see (https://acme.test/help).')).toEqual([
      'https://acme.test/r/abc123',
      'https://acme.test/help',
    ])
    expect(linksInText('Docs https://en.wikipedia.org/wiki/Foo_(bar), ok?')).toEqual([
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    ])
    expect(linksInText('no links here, just ftp://x.test and http:// alone')).toEqual([])
  })
})

describe('large bodies (past FULL_RENDER_LIMIT): one SAX pass for text and links', () => {
  const filler = `<p>${'Lorem ipsum dolor sit amet. '.repeat(Math.ceil(FULL_RENDER_LIMIT / 28))}</p>`
  const html = `<style>.a{background:url(https://evil.test/x.png)}</style><h1>Reset Your Password</h1><p>Your verification code: <b>582930</b></p><p><a href="https://acme.test/r?a=1&amp;b=2">Reset</a> or see https://acme.test/help.</p><img src="https://cdn.acme.test/logo.png">${filler}`

  it('keeps headings as written, link URLs after their text, blocks on their own lines, no CSS', () => {
    expect(html.length).toBeGreaterThan(FULL_RENDER_LIMIT)
    const { text, links } = renderEmail(html)
    expect(text.startsWith('Reset Your Password\n')).toBe(true)
    expect(text).toContain('Reset [https://acme.test/r?a=1&b=2] or see https://acme.test/help.')
    expect(text).not.toContain('evil.test')
    expect(links).toEqual(['https://acme.test/r?a=1&b=2', 'https://acme.test/help'])
    expect(renderEmail(html).images).toEqual(['https://cdn.acme.test/logo.png'])
    expect(findCodes(text)).toEqual(['582930'])
  })

  it('gives the same links as the small-body path', () => {
    const small = html.slice(0, html.indexOf(filler))
    expect(renderEmail(small).links).toEqual(renderEmail(html).links)
    expect(renderEmail(small).links).toEqual(linksInHtml(small))
  })
})
