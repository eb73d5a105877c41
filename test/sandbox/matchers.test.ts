import { expect as jestExpect } from 'expect'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { matchers } from '../../src/matchers.js'
import { inProcess } from '../helpers.js'

expect.extend(matchers)
jestExpect.extend(matchers)

const api = inProcess()
afterAll(() => api.dispose())
beforeEach(async () => {
  await api.sandbox.reset()
  await api.call('POST', '/sms/send', { to: '+14155550124', message: 'Your code is 111111' })
  await api.call('POST', '/sms/send', { to: '+14155550123', message: 'Your Acme code is 482913' })
  await api.call('POST', '/email/send', {
    to: 'maria@example.com',
    subject: 'Reset your password',
    html: '<p><a href="https://acme.test/reset?token=abc&amp;u=1">Reset</a></p>',
  })
})

describe.each([
  ['vitest', expect as unknown as typeof jestExpect],
  ['jest (expect package)', jestExpect],
])('matchers with %s', (_name, e) => {
  it('toHaveSent with plain filters, a RegExp and asymmetric matchers', () => {
    e(api.sandbox).toHaveSent({ channel: 'sms', to: '+14155550123' })
    e(api.sandbox).toHaveSent({ channel: 'sms', text: /code is \d{6}/ })
    e(api.sandbox).toHaveSent({ channel: 'sms', codes: ['482913'] })
    e(api.sandbox).toHaveSent({
      channel: 'email',
      links: e.arrayContaining([e.stringMatching(/\/reset\?token=abc&u=1$/)]),
    })
    e(api.sandbox.outbox).toHaveSent({ subject: /password/i })
    e(api.sandbox).not.toHaveSent({ channel: 'whatsapp' })
  })

  it('toHaveSentTimes and toHaveSentNothing', () => {
    e(api.sandbox).toHaveSentTimes({ channel: 'sms' }, 2)
    e(api.sandbox).toHaveSentTimes({ channel: 'email', to: 'maria@example.com' }, 1)
    e(api.sandbox).toHaveSentNothing({ channel: 'whatsapp' })
    e(api.sandbox).not.toHaveSentNothing()
  })

  it('a failing matcher prints the filter and the nearest misses, not the outbox', () => {
    let message = ''
    try {
      e(api.sandbox).toHaveSent({ channel: 'sms', to: '+14155550199' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('expected an SMS to +14155550199 to have been sent')
    expect(message).toContain('the last 2 SMS went to +14155550123 "Your Acme code is 482913" (queued), +14155550124')
    expect(message).not.toContain('message_id')
    expect(() => e(api.sandbox).toHaveSentTimes({ channel: 'sms' }, 3)).toThrow(/expected 3 × SMS, but found 2/)
    expect(() => e(api.sandbox).toHaveSentNothing({ channel: 'email' })).toThrow(/expected no Email, but 1 was sent/)
  })

  it('a typo in the filter is a TypeError naming it', () => {
    expect(() => e(api.sandbox).toHaveSent({ chanel: 'sms' } as never)).toThrow(/unknown filter key "chanel"/)
    expect(() => e({}).toHaveSent({})).toThrow(/takes a sandbox/)
  })
})
