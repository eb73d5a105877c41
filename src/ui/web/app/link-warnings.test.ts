import { domainToUnicode } from 'node:url'
import { describe, expect, it } from 'vitest'
import { decodePunycode, linkFindings, linkWarnings, scriptsOf, unicodeHost } from './link-warnings.js'

describe('linkWarnings', () => {
  it('flags userinfo, punycode hosts and bidi controls, and nothing in a plain link', () => {
    expect(linkWarnings('https://acme.test/reset?t=1')).toEqual([])
    expect(linkWarnings('https://shop.test@evil.test/login')).toEqual([
      'the part before "@" is not the host: it goes to evil.test',
    ])
    expect(linkWarnings(new URL('https://аpple.test/').href)).toEqual([
      'the host has non-Latin or look-alike letters (punycode)',
      'the host mixes scripts (Cyrillic and Latin in "аpple" of аpple.test): letters that look alike but are not',
    ])
    expect(linkWarnings(new URL('https://пример.test/').href)).toEqual([
      'the host has non-Latin or look-alike letters (punycode)',
    ])
    expect(linkWarnings(new URL('https://acme.test/\u202egnp.exe').href)).toEqual([
      'it holds a bidi control, which can reorder how it reads',
    ])
    expect(linkWarnings('not a url')).toEqual(['not a URL'])
  })
})

const kinds = (link: string) => linkFindings(link).map((w) => w.kind)

describe('linkFindings', () => {
  it('says nothing about an ordinary link', () => {
    expect(kinds('https://app.example.com/reset?token=abc')).toEqual([])
    expect(kinds('http://localhost:3000/a')).toEqual([])
    expect(kinds('not a url')).toEqual([])
  })

  it('marks a user name before @ (the host is what follows it)', () => {
    const [warning] = linkFindings('https://paypal.com@evil.example/login')
    expect(warning.kind).toBe('userinfo')
    expect(warning.explanation).toContain('it goes to evil.example')
  })

  it('marks punycode and a host mixing scripts, and says how the host shows', () => {
    const warnings = linkFindings(new URL('https://аpple.example/').href)
    expect(warnings.map((w) => w.kind)).toEqual(['punycode', 'mixed-script'])
    expect(warnings[1].explanation).toContain('Cyrillic and Latin')
    expect(warnings[1].explanation).toContain('аpple.example')
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
    for (const host of [
      'xn--pple-43d.example',
      'xn--bcher-kva.de',
      'xn--e1afmkfd.xn--p1ai',
      'xn--wgv71a119e.jp',
      'plain.example',
    ]) {
      expect(unicodeHost(host)).toBe(domainToUnicode(host))
    }
    expect(decodePunycode('99999999999')).toBeNull()
    expect(scriptsOf('аpple')).toEqual(['Cyrillic', 'Latin'])
  })
})
