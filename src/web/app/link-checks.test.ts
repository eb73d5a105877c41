import { domainToUnicode } from 'node:url'
import { describe, expect, it } from 'vitest'
import { decodePunycode, linkWarnings, scriptsOf, unicodeHost } from './link-checks.js'

const kinds = (link: string) => linkWarnings(link).map((w) => w.kind)

describe('linkWarnings', () => {
  it('says nothing about an ordinary link', () => {
    expect(kinds('https://app.example.com/reset?token=abc')).toEqual([])
    expect(kinds('http://localhost:3000/a')).toEqual([])
    expect(kinds('not a url')).toEqual([])
  })

  it('marks a user name before @ (the host is what follows it)', () => {
    const [warning] = linkWarnings('https://paypal.com@evil.example/login')
    expect(warning.kind).toBe('userinfo')
    expect(warning.explanation).toContain('evil.example')
    expect(warning.explanation).toContain('paypal.com')
  })

  it('marks punycode and a host mixing scripts, and says how the host shows', () => {
    const warnings = linkWarnings(new URL('https://аpple.example/').href)
    expect(warnings.map((w) => w.kind)).toEqual(['punycode', 'mixed-script'])
    expect(warnings[0].explanation).toContain('аpple.example')
    expect(warnings[1].explanation).toContain('Cyrillic and Latin')
    // One script, international: punycode only.
    expect(kinds(new URL('https://пример.рф/').href)).toEqual(['punycode'])
    expect(kinds(new URL('https://日本語.jp/').href)).toEqual(['punycode'])
  })

  it('marks bidi controls, raw or percent-encoded', () => {
    expect(kinds(new URL('https://acme.example/\u202eexe.txt').href)).toEqual(['bidi'])
    expect(kinds('https://acme.example/?q=%e2%81%a6')).toEqual(['bidi'])
    expect(kinds('https://acme.example/%E2%80%8F')).toEqual(['bidi'])
  })
})

describe('punycode', () => {
  it('decodes as the URL standard does', () => {
    for (const host of ['xn--pple-43d.example', 'xn--bcher-kva.de', 'xn--e1afmkfd.xn--p1ai', 'xn--wgv71a119e.jp', 'plain.example']) {
      expect(unicodeHost(host)).toBe(domainToUnicode(host))
    }
    expect(decodePunycode('99999999999')).toBeNull()
    expect(scriptsOf('аpple')).toEqual(['Cyrillic', 'Latin'])
  })
})
