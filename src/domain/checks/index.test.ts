import { describe, expect, it } from 'vitest'
import { checkReportSchema } from '../../contract/checks.js'
import type { EmailMessage } from '../../contract/captured-message.js'
import { checkMessage } from './index.js'
import { emailToMime as toMime } from './email/mime.js'

const email = {
  message_id: 'msg_e',
  channel: 'email',
  direction: 'outbound',
  to: 'ana@example.com',
  created_at: '2026-01-01T00:00:00.000Z',
  text: 'Hi',
  links: ['http://example.com/a'],
  images: [],
  email: {
    from: { email: 'app@example.com', name: 'Zoë App' },
    subject: 'Héllo',
    html: '<html lang="en"><a href="http://example.com/a">Offer</a></html>',
  },
} as unknown as EmailMessage

describe('checkMessage', () => {
  it("reports an email in the contract's shape, with the one note saying how to enable spam checks", async () => {
    const report = await checkMessage(email, { now: () => 0 })
    expect(checkReportSchema.parse(report)).toEqual(report)
    expect(report.checks.map((c) => c.id).filter((id) => !id.startsWith('compat.'))).toEqual([
      'links.http',
      'spam.not-configured',
    ])
    expect(report.checks.filter((c) => c.category === 'spam')).toHaveLength(1)
    expect(report.checks.find((c) => c.id === 'spam.not-configured')!.message).toContain('--spamassassin HOST:PORT')
    expect(report).toMatchObject({ message_id: 'msg_e', channel: 'email', counts: { error: 0 }, live_links: false })
  })

  it('runs the HTML checks through the given checker (the worker in the server)', async () => {
    const report = await checkMessage(email, { htmlChecker: async () => ({ checks: [], clients: [] }) })
    expect(report.checks.map((c) => c.id)).toEqual(['spam.not-configured'])
  })
})
