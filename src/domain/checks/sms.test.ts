import { describe, expect, it } from 'vitest'
import type { SmsMessage } from '../../contract/captured-message.js'
import { linksInText } from '../extract.js'
import { encodeSms } from '../sms-encoding.js'
import { gsmReplacement, MAX_UCS2_FINDINGS, smsChecks } from './sms.js'

function sms(
  text: string,
  options: { from?: string | null; to?: string; direction?: 'outbound' | 'inbound' } = {},
): SmsMessage {
  return {
    message_id: 'msg_1',
    direction: options.direction ?? 'outbound',
    to: options.to ?? '+447700900123',
    links: linksInText(text),
    sms: { text, from: options.from ?? null, ...encodeSms(text) },
  } as unknown as SmsMessage
}

const ids = (message: SmsMessage) => smsChecks(message).map((c) => c.id)

describe('SMS checks', () => {
  it('names a curly apostrophe, its position, its replacement and the segments without it', () => {
    const text = `Your code is ready, it’s 123456. ${'a'.repeat(60)}`
    const [check, ...rest] = smsChecks(sms(text))
    expect(rest.map((c) => c.id)).toEqual(['sms.segments'])
    expect(check).toMatchObject({
      id: 'sms.ucs2-character',
      severity: 'warning',
      category: 'encoding',
      character: '’',
      position: 22,
      replacement: "'",
    })
    expect(check.message).toContain('UCS-2')
    expect(check.message).toContain('GSM-7 in 1 segment instead of UCS-2 in 2')
  })

  it('replaces dashes, quotes, ellipsis and no-break spaces, and accented letters by their base letter', () => {
    expect(['–', '—', '“', '”', '…', '\u00a0', 'á', 'ç'].map(gsmReplacement)).toEqual([
      '-',
      '-',
      '"',
      '"',
      '...',
      ' ',
      'a',
      'c',
    ])
    expect(gsmReplacement('😀')).toBeUndefined()
  })

  it('says an emoji has no replacement and the SMS stays UCS-2', () => {
    const [check] = smsChecks(sms('Hi 😀'))
    expect(check.replacement).toBeUndefined()
    expect(check.message).toContain('stays UCS-2')
  })

  it('lists at most 50 culprits, then how many more', () => {
    const checks = smsChecks(sms('’'.repeat(60)))
    expect(checks.filter((c) => c.id === 'sms.ucs2-character')).toHaveLength(MAX_UCS2_FINDINGS + 1)
    expect(checks[MAX_UCS2_FINDINGS].message).toMatch(/^10 more/)
  })

  it('notes more than one segment', () => {
    expect(ids(sms('a'.repeat(161)))).toEqual(['sms.segments'])
    expect(ids(sms('a'.repeat(160)))).toEqual([])
  })

  it('refuses an alphanumeric sender to +1 only', () => {
    const [check] = smsChecks(sms('Hello', { from: 'ACME', to: '+14155550123' }))
    expect(check).toMatchObject({ id: 'sms.alphanumeric-sender', severity: 'error', category: 'sender' })
    expect(ids(sms('Hello', { from: 'ACME', to: '+447700900123' }))).toEqual([])
    expect(ids(sms('Hello', { from: '+14155550000', to: '+14155550123' }))).toEqual([])
    expect(ids(sms('Hello', { from: '12345', to: '+14155550123' }))).toEqual([])
  })

  it('warns on public shorteners, with or without a scheme, and on http links', () => {
    const checks = smsChecks(
      sms('See bit.ly/abc or https://tinyurl.com/x and http://example.com/a, not https://bitly.example.com'),
    )
    expect(checks.map((c) => [c.id, c.link])).toEqual([
      ['sms.url-shortener', 'bit.ly/abc'],
      ['sms.url-shortener', 'https://tinyurl.com/x'],
      ['sms.http-link', 'http://example.com/a'],
    ])
  })

  it('finds nothing in a plain GSM-7 SMS', () => {
    expect(smsChecks(sms('Your code is 123456. https://example.com/verify'))).toEqual([])
  })
})
