import { describe, expect, it } from 'vitest'
import { channelList, emailChannel, searchTextOf, senderOf, summarize, summaryOf } from './index.js'
import { smsChannel } from './sms/capture.js'
import { whatsappChannel } from './whatsapp/capture.js'
import type { CapturedMessage } from '../../contract/captured-message.js'

const sender = { key: 'test_pro_key', plan: 'pro' as const, account: 'acme' }
const lifecycle = {
  status: 'queued' as const,
  reason: null,
  status_history: [],
  created_at: '2026-11-25T00:00:00.000Z',
}
const whole = (input: { message: object }) => ({ ...input.message, ...lifecycle }) as unknown as CapturedMessage

describe('channel readings (one for the server, the terminal UI and the web inbox)', () => {
  it('reads a summary exactly as the whole message: list line, sender and search text', () => {
    const sms = whole(
      smsChannel.capture(
        sender,
        { to: '+15550001', message: 'one\n\nthree', from: 'ACME' },
        { to: '+15550001', message: 'one\n\nthree', from: 'ACME' },
        () => 1,
      ),
    )
    const listed = summarize(sms)
    expect(summaryOf(sms)).toBe('one ⏎  ⏎ three')
    expect(summaryOf(listed)).toBe(summaryOf(sms))
    expect(senderOf(listed)).toBe('ACME')
    expect(searchTextOf(listed)).toBe(searchTextOf(sms))
  })

  it('searches a template and its parameter values, and titles a reply with ↩', () => {
    const body = { to: '+15550002', template: 'otp_login', language: 'en', parameters: { code: 'Zebra' } }
    const wa = whole(whatsappChannel.capture(sender, body, body, () => 1))
    expect(searchTextOf(summarize(wa))).toContain('otp_login')
    expect(searchTextOf(summarize(wa))).toContain('zebra')
    const reply = whole(whatsappChannel.receive!({ sender, from: '+15550002', to: '+15559999', text: 'STOP', raw: {} }))
    expect(summaryOf(summarize(reply))).toBe('↩ STOP')
  })

  it('lists at most 100 links, each cut once with its marker, and keeps a cut link as it is', () => {
    const long = `https://example.test/${'a'.repeat(3_000)}`
    const html = Array.from({ length: 120 }, (_, i) => `<a href="${long}${i}">x</a>`).join('')
    const email = whole(
      emailChannel.capture(
        sender,
        { to: 'a@example.test', subject: 'S', html },
        { to: 'a@example.test', subject: 'S', html },
        () => 1,
      ),
    )
    const listed = summarize(email)
    expect(listed.links).toHaveLength(100)
    expect(listed.links_total).toBe(120)
    expect(listed.links[0]).toMatch(/…\[\+[0-9]+ chars\]$/)
    expect(listed.links[0].length).toBeLessThan(2_100)
    // An event's summary summarized again (the web inbox does) stays the same.
    expect(summarize({ ...email, links: listed.links } as CapturedMessage).links).toEqual(listed.links)
    expect('html' in (listed as { email: object }).email).toBe(false)
  })
})

describe('channelList', () => {
  it('names the channels as prose does mid-sentence: common nouns lowercased, acronyms and brands as labelled', () => {
    expect(channelList(['email', 'sms', 'whatsapp'])).toBe('email, SMS and WhatsApp')
    expect(channelList(['sms', 'whatsapp'])).toBe('SMS and WhatsApp')
    expect(channelList(['email'])).toBe('email')
  })
})
