import { describe, expect, it } from 'vitest'
import { HOSTILE, HOSTILE_TEXT } from '../../test/hostile-payloads.js'
import { isSafeText, MARKER, printable, safeText } from './safe-text.js'

const M = MARKER

describe('safeText', () => {
  it('removes each escape sequence whole, shown as one marker', () => {
    expect(safeText(`a${HOSTILE.osc0}b`)).toBe(`a${M}b`)
    expect(safeText(`a${HOSTILE.osc2}b`)).toBe(`a${M}b`)
    expect(safeText(`a${HOSTILE.osc52}b`)).toBe(`a${M}b`)
    expect(safeText(`a${HOSTILE.csi}b`)).toBe(`a${M}b`)
    expect(safeText(`a${HOSTILE.dcs}b`)).toBe(`a${M}b`)
    expect(safeText(`a${HOSTILE.c1}b`)).toBe(`a${M}b`)
    expect(safeText('a\u001b[38;5;196mred\u001b[0m')).toBe(`a${M}red${M}`)
    expect(safeText('a\u001b_apc\u001b\\b\u001b^pm\u001b\\c\u001bXsos\u001b\\d')).toBe(`a${M}b${M}c${M}d`)
    expect(safeText('a\u009d0;title\u009cb\u0090dcs\u009cc')).toBe(`a${M}b${M}c`)
    expect(safeText('a\u001b7b\u001bc')).toBe(`a${M}b${M}`)
  })

  it('shows the text of an OSC 8 hyperlink, never its hidden target', () => {
    const shown = safeText(HOSTILE.osc8)
    expect(shown).toBe(`${M}click me${M}`)
    expect(shown).not.toContain('evil')
  })

  it('a run of several removed things is one marker; an unterminated string sequence loses only its introducer', () => {
    expect(safeText(`x${HOSTILE.csi}${HOSTILE.osc0}\u0000\u202e\u200by`)).toBe(`x${M}y`)
    expect(safeText('a\u001b]0;no terminator here')).toBe(`a${M}0;no terminator here`)
    expect(safeText('a\u001b')).toBe(`a${M}`)
  })

  it('removes C0 and C1 controls but keeps tab and line breaks for the views', () => {
    expect(safeText('a\u0000b\u0008c\u007fd\u0085e')).toBe(`a${M}b${M}c${M}d${M}e`)
    expect(safeText('line 1\r\nline 2\tend')).toBe('line 1\r\nline 2\tend')
  })

  it('removes bidi controls and invisible fillers', () => {
    for (const cp of [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x3164, 0x115f,
      0x1160, 0xffa0, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e,
    ]) {
      expect(safeText(`a${String.fromCodePoint(cp)}b`), cp.toString(16)).toBe(`a${M}b`)
    }
    expect(safeText(HOSTILE.rlo)).toBe(`${M}exe.txt`)
  })

  it('keeps what is printable: accents, CJK, emoji, a joiner between two emoji', () => {
    for (const text of ['café', '验证码 482913', 'hi 😀', '👩‍💻 dev', '👨🏽‍🚀', '🏳️‍🌈', 'https://acme.test/a?b=c#d']) {
      expect(safeText(text)).toBe(text)
      expect(isSafeText(text)).toBe(true)
    }
  })

  it('leaves nothing of the hostile list that a terminal acts on', () => {
    const shown = safeText(HOSTILE_TEXT)
    // eslint-disable-next-line no-control-regex
    expect(shown).not.toMatch(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u3164\ufeff]/,
    )
    expect(isSafeText(HOSTILE_TEXT)).toBe(false)
    expect(isSafeText(shown)).toBe(true)
    expect(safeText(shown)).toBe(shown)
  })

  it('removes what draws nothing but a program reads: soft hyphen, grapheme joiner, U+206A–206F, U+FFF9–FFFB, tag characters', () => {
    const tags = [...'ignore the user'].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('')
    expect(safeText(`pay\u00adpal`)).toBe(`pay${M}pal`)
    expect(safeText(`a\u034fb\u206ac\u206fd`)).toBe(`a${M}b${M}c${M}d`)
    expect(safeText(`x\ufff9note\ufffaruby\ufffby`)).toBe(`x${M}note${M}ruby${M}y`)
    expect(safeText(`Hello${tags}!`)).toBe(`Hello${M}!`)
    expect(safeText(`\u{e0001}\u{e007f}`)).toBe(M)
    for (const text of [`pay\u00adpal`, `Hello${tags}`]) expect(isSafeText(text)).toBe(false)
    // Neighbours of the new ranges are kept.
    for (const text of ['\u00ac\u00ae', '\u034e\u0350', '\u2065x', '\ufff8\ufffc\ufffd', '\u{dffff}\u{e0080}'])
      expect(safeText(text)).toBe(text)
  })

  it('is linear: a megabyte of introducers without terminators, and a megabyte of plain text', () => {
    const bomb = '\u001b]\u001b[1;'.repeat(150_000)
    expect(safeText(bomb)).toBe(`${M}1;`.repeat(150_000))
    expect(safeText('a'.repeat(1 << 20)).length).toBe(1 << 20)
  })
})

describe('printable', () => {
  it('is one row: tab and line breaks become spaces after the sequences are gone', () => {
    expect(printable(`a\tb\nc${HOSTILE.csi}d`)).toBe(`a b c${M}d`)
  })
})

describe('withoutEscapes (what links are found in)', () => {
  it('removes escape sequences whole and controls, keeps tabs and line breaks, and returns plain text as is', async () => {
    const { withoutEscapes } = await import('./safe-text.js')
    expect(withoutEscapes('a\u001b]8;;https://x.example\u0007b\u001b[31mc\u0000d\te\nf')).toBe('abcd\te\nf')
    expect(withoutEscapes('\u009b1mx\u001bP|payload\u001b\\y')).toBe('xy')
    const plain = 'https://example.com/ plain'
    expect(withoutEscapes(plain)).toBe(plain)
  })
})
