import { describe, expect, it } from 'vitest'
import { linkWarnings } from './link-warnings.js'

describe('linkWarnings', () => {
  it('flags userinfo, punycode hosts and bidi controls, and nothing in a plain link', () => {
    expect(linkWarnings('https://acme.test/reset?t=1')).toEqual([])
    expect(linkWarnings('https://shop.test@evil.test/login')).toEqual(['the part before "@" is not the host: it goes to evil.test'])
    expect(linkWarnings(new URL('https://аpple.test/').href)).toEqual(['the host has non-Latin or look-alike letters (punycode)'])
    expect(linkWarnings(new URL('https://acme.test/\u202egnp.exe').href)).toEqual(['it holds a bidi control, which can reorder how it reads'])
    expect(linkWarnings('not a url')).toEqual(['not a URL'])
  })
})
