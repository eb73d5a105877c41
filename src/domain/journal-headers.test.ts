import { describe, expect, it } from 'vitest'
import { journalHeadersOf, JOURNAL_HEADER_LIMIT, packHeaders } from './journal-headers.js'

describe('journal headers', () => {
  it('are read back lower-cased, sorted, repeated ones joined, host left out and credentials masked', () => {
    const packed = packHeaders([
      'Host',
      'localhost:4010',
      'X-Trace',
      'one',
      'Authorization',
      'Bearer sk_live_0123456789abcdef',
      'x-trace',
      'two',
      'Content-Type',
      'application/json',
    ])
    const headers = journalHeadersOf(packed)
    expect(Object.keys(headers)).toEqual(['authorization', 'content-type', 'x-trace'])
    expect(headers['x-trace']).toBe('one, two')
    expect(headers.authorization).toMatch(/^Bearer /)
    expect(headers.authorization).not.toContain('0123456789abcdef')
    expect(JSON.stringify(headers)).not.toContain('localhost:4010')
  })

  it("are each request's own when requests repeat, alternate or differ in one value or in length", () => {
    const a = ['Host', 'h', 'Authorization', 'Bearer key_a', 'Accept', '*/*']
    const b = ['Host', 'h', 'Authorization', 'Bearer key_b', 'Accept', '*/*']
    const shorter = ['Host', 'h', 'Authorization', 'Bearer key_a']
    const sequence = [a, [...a], b, [...a], shorter, [...shorter], a, [], [], b]
    const packed = sequence.map((pairs) => packHeaders(pairs))
    sequence.forEach((pairs, i) => expect(packed[i]).toBe(pairs.join('\n')))
    expect(journalHeadersOf(packed[2]).authorization).toBe(journalHeadersOf(packHeaders(b)).authorization)
    expect(journalHeadersOf(packed[4])).toEqual({ authorization: journalHeadersOf(packHeaders(shorter)).authorization })
  })

  it('keep at most the limit, and none when the packed text does not pair up', () => {
    const many = Array.from({ length: JOURNAL_HEADER_LIMIT + 10 }, (_, i) => [
      `x-h${String(i).padStart(2, '0')}`,
      'v',
    ]).flat()
    expect(Object.keys(journalHeadersOf(packHeaders(many)))).toHaveLength(JOURNAL_HEADER_LIMIT)
    expect(journalHeadersOf(packHeaders([]))).toEqual({})
    // A value that held a line feed would shift every name after it: nothing is shown rather than a value as a name.
    expect(journalHeadersOf(packHeaders(['x-a', 'one\ntwo', 'authorization', 'Bearer secret-key-123']))).toEqual({})
  })
})
