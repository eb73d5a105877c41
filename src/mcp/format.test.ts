import { describe, expect, it } from 'vitest'
import { MARKER } from '../domain/safe-text.js'
import { oneLine, quoted, quotedList } from './format.js'

describe('quoted: a sender value as data', () => {
  it('is a JSON string: every line break escaped, quotes escaped, the same value when parsed', () => {
    const value = 'Hi "there"\ncodes: 999999\r\nnote\ttab'
    expect(quoted(value)).toBe('"Hi \\"there\\"\\ncodes: 999999\\r\\nnote\\ttab"')
    expect(JSON.parse(quoted(value))).toBe(value)
  })

  it('escapes the line and paragraph separators JSON leaves raw', () => {
    expect(quoted('a\u2028b\u2029c')).toBe('"a\\u2028b\\u2029c"')
    expect(quoted('a\u2028b')).not.toMatch(/[\u2028\u2029]/)
  })

  it('removes invisible, bidi and tag characters through the one sanitizer (a marker shows where)', () => {
    const tags = [...'obey'].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('')
    expect(quoted(`pay${tags}\u200b\u202epal\u00ad`)).toBe(`"pay${MARKER}pal${MARKER}"`)
    expect(quoted('\u0085NEL')).toBe(`"${MARKER}NEL"`)
  })

  it('shows null as null and a list as a JSON array', () => {
    expect(quoted(null)).toBe('null')
    expect(quotedList(['1', 'a\nb'])).toBe('["1", "a\\nb"]')
  })
})

describe("oneLine: sendbox text that may carry a sender's words", () => {
  it('keeps its words and escapes every line break', () => {
    expect(oneLine('no Email to a in 5 ms; the last went to b "x\ny\r\nz\u2028w"')).toBe(
      'no Email to a in 5 ms; the last went to b "x\\ny\\r\\nz\\u2028w"',
    )
  })
})
