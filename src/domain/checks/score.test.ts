import { describe, expect, it } from 'vitest'
import type { Check } from '../../contract/checks.js'
import { countsOf, reportOf, scoreOf } from './score.js'

const check = (id: string, severity: Check['severity'], extra: Partial<Check> = {}): Check => ({
  id,
  severity,
  category: 'links',
  message: id,
  ...extra,
})

describe('score', () => {
  it('is 100 with nothing found, and takes 25 an error, 8 a warning, 1 an info', () => {
    expect(scoreOf([])).toBe(100)
    expect(scoreOf([check('a', 'error'), check('b', 'warning'), check('c', 'info')])).toBe(66)
  })

  it('counts at most three findings of one rule, and never goes below 0', () => {
    expect(scoreOf(Array.from({ length: 10 }, () => check('links.http', 'warning')))).toBe(76)
    expect(scoreOf(Array.from({ length: 10 }, (_, i) => check(`e${i}`, 'error')))).toBe(0)
  })

  it('counts compatibility only for the clients that count, and not the spam note', () => {
    const compat = check('compat.css-display-flex', 'warning', {
      category: 'compatibility',
      clients: ['outlook.windows'],
    })
    expect(scoreOf([compat], ['gmail'])).toBe(100)
    expect(scoreOf([compat], ['outlook'])).toBe(92)
    expect(scoreOf([compat], [])).toBe(92)
    expect(scoreOf([check('spam.not-configured', 'info', { category: 'spam' })])).toBe(100)
  })

  it('counts by severity and orders the report errors first', () => {
    const checks = [check('i', 'info'), check('w', 'warning'), check('e', 'error')]
    expect(countsOf(checks)).toEqual({ error: 1, warning: 1, info: 1 })
    const report = reportOf({
      messageId: 'msg_1',
      channel: 'sms',
      checks,
      emailClients: [],
      checkedAt: 0,
      liveLinks: false,
    })
    expect(report.checks.map((c) => c.id)).toEqual(['e', 'w', 'i'])
    expect(report).toMatchObject({
      message_id: 'msg_1',
      score: 66,
      checked_at: '1970-01-01T00:00:00.000Z',
      live_links: false,
    })
  })
})
