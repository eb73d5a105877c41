import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { cellWidth, fitCells, padCells, printable, wrapRows } from './cells.js'
import { RowSource } from './page.js'

describe('cell widths', () => {
  it('counts emoji and CJK as two cells, combining marks and joiners as none, as string-width does', () => {
    const samples = ['abc', '日本語', '😀', 'e\u0301', '👨‍👩‍👧', '👍🏽', '🇺🇸', '❤️', '1️⃣', 'Привет', 'ｶﾞ', '\u00a0']
    for (const sample of samples) expect(cellWidth(sample), sample).toBe(stringWidth(sample))
    expect(cellWidth('日本')).toBe(4)
    expect(cellWidth('e\u0301e\u0301')).toBe(2)
  })

  it('neutralises every hostile payload: each sequence or run of hidden characters one marker, what is plain kept (issue 27, N3/N9)', () => {
    const payloads: Array<[string, string]> = [
      ['\u001b]0;owned\u0007title', '\ufffdtitle'],
      ['\u001b]2;owned\u001b\\x', '\ufffdx'],
      ['\u001b]8;;https://attacker.test\u0007shown.test\u001b]8;;\u0007', '\ufffdshown.test\ufffd'],
      ['\u001b]52;c;cm0gLXJmIH4=\u0007', '\ufffd'],
      ['\u001b[2J\u001b[31mred', '\ufffdred'],
      ['\u001bP1$r\u001b\\', '\ufffd'],
      ['\u009b2J\u009d0;x\u0090q', '\ufffd0;x\ufffdq'],
      ['moc.\u202elive', 'moc.\ufffdlive'],
      ['ana\u3164\u3164@evil.test', 'ana\ufffd@evil.test'],
      ['pay\u200bpal\u200c\u2060\ufeff', 'pay\ufffdpal\ufffd'],
      ['a\u200db', 'a\ufffdb'],
      ['https://x.test/a\nrm -rf ~', 'https://x.test/a rm -rf ~'],
      ['👨‍👩‍👧 Привет 日本', '👨‍👩‍👧 Привет 日本'],
    ]
    for (const [raw, shown] of payloads) {
      expect(printable(raw), JSON.stringify(raw)).toBe(shown)
      // eslint-disable-next-line no-control-regex
      expect(printable(raw)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u3164\u200b]/)
    }
  })

  it('shows an escape sequence or a control as one marker, a line separator as a space', () => {
    expect(printable('a\u001b[2Jb\u0007\u2028')).toBe('a\ufffdb\ufffd ')
    expect(cellWidth('a\u001bb')).toBe(3)
    expect(printable('x\ud800y')).toBe('x\ufffdy')
    expect(printable('😀')).toBe('😀')
    expect(printable('a\u00a0b')).toBe('a b')
  })
})

describe('fitCells', () => {
  it('cuts to the width with an ellipsis, by cells, and leaves what fits alone', () => {
    expect(fitCells('hello', 10)).toBe('hello')
    expect(fitCells('hello world', 8)).toBe('hello w…')
    expect(cellWidth(fitCells('日本語のテキスト', 7))).toBeLessThanOrEqual(7)
    expect(fitCells('日本語のテキスト', 7)).toMatch(/^日本語…?$/)
    expect(padCells('ab', 5)).toBe('ab   ')
    expect(padCells('日本', 5)).toBe('日本 ')
  })

  it('looks only at what can show: a cluster bomb in a value still gives a short cell', () => {
    // How fast this is, is the benchmark's business (bench/ui-hostile.mjs); here: bounded output.
    expect(fitCells(`e${'\u0301'.repeat(100_000)}`, 10).length).toBeLessThan(200)
    expect(fitCells('\u00a0'.repeat(1 << 20), 40)).toBe(`${' '.repeat(39)}…`)
  })
})

describe('wrapRows', () => {
  it('wraps at spaces by cells, never splits a wide character or a cluster, and loses no visible character', () => {
    const text = 'Hi 👋 Ana! 🎉 Your code 123456 日本語のテキスト 👨‍👩‍👧 e\u0301'
    for (const width of [5, 8, 11, 20, 40]) {
      const rows = wrapRows(text, width)
      for (const row of rows) expect(cellWidth(row), `${width}: ${row}`).toBeLessThanOrEqual(width)
      expect(rows.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''))
      expect(rows.join('')).not.toContain('\ufffd')
    }
  })

  it('splits a word longer than a row (a URL) into rows that join back to it exactly', () => {
    const url = `https://example.com/reset?token=${'a1b2'.repeat(30)}`
    const rows = wrapRows(url, 30)
    expect(rows.join('')).toBe(url)
    expect(rows.every((row) => row.length <= 30)).toBe(true)
  })

  it("keeps every line of a multi-line text, blank lines too, and each line's case", () => {
    expect(wrapRows('Password Reset\r\n\nSecond\rthird', 40)).toEqual(['Password Reset', '', 'Second', 'third'])
  })

  it('breaks a cluster bomb (one letter and 100,000 combining marks) into bounded rows', () => {
    const rows = wrapRows(`e${'\u0301'.repeat(100_000)}`, 40)
    expect(rows.length).toBeGreaterThan(1)
    expect(Math.max(...rows.map((r) => r.length))).toBeLessThanOrEqual(40 * 8 + 32)
  })
})

describe('RowSource', () => {
  it('wraps a slice at a time and resumes inside a 1 MiB line, with the same rows as all at once', () => {
    const text = `${'word '.repeat(1000)}\n${'x'.repeat(5000)}`
    const whole = wrapRows(text, 30)
    const source = new RowSource([{ kind: 'text', text }], 30)
    source.fill(10)
    expect(source.rows.length).toBeGreaterThanOrEqual(10)
    expect(source.done).toBe(false)
    while (!source.fill(Infinity, 0.01)) {
      /* slices */
    }
    expect(source.rows.map((row) => row.map((s) => s.text).join(''))).toEqual(whole)
  })

  it('numbers links and wraps each in full, every row a hyperlink to the whole URL', () => {
    const links = Array.from({ length: 12 }, (_, i) => `https://example.com/${i}/${'z'.repeat(40)}`)
    const source = new RowSource([{ kind: 'links', links, anchor: 'links' }], 30)
    source.fill(Infinity)
    const rows = source.rows.map((row) => row.map((s) => s.text).join(''))
    expect(rows[0].startsWith(' 1 https://example.com/0/')).toBe(true)
    const first = rows.slice(
      0,
      rows.findIndex((r, i) => i > 0 && r.startsWith(' 2 ')),
    )
    expect(first.map((r) => r.slice(3)).join('')).toBe(links[0])
    expect(source.rows.every((row) => row[1].link !== undefined && links.includes(row[1].link))).toBe(true)
    expect(source.anchors.get('links')).toBe(0)
  })

  it('highlights codes wherever a row holds them', () => {
    const source = new RowSource(
      [{ kind: 'text', text: 'Your code is 482913. Again: 482913', highlight: ['482913'] }],
      80,
    )
    source.fill(Infinity)
    const marked = source.rows[0].filter((s) => s.background === 'yellow').map((s) => s.text)
    expect(marked).toEqual(['482913', '482913'])
  })
})
