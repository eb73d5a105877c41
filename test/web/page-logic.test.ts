import { describe, expect, it } from 'vitest'
import { tokenizeHtml } from '../../src/web/app/html-tokens.js'
import { matchesFilters, summarize } from '../../src/web/app/format.js'
import { EventStreamParser } from '../../src/web/app/sse.js'
import type { CapturedMessage } from '../../src/web/app/types.js'

// The page's pure pieces, without a browser.
describe('web inbox logic', () => {
  it('parses the event stream across chunk boundaries, skipping pings', () => {
    const events: [string, string][] = []
    const parser = new EventStreamParser((type, data) => events.push([type, data]))
    parser.push(': ping\n\nevent: message.captured\nda')
    parser.push('ta: {"a":1}\n\nevent: request\r\ndata: {"b":')
    parser.push('2}\r\n\r\ndata: plain\n\n')
    expect(events).toEqual([
      ['message.captured', '{"a":1}'],
      ['request', '{"b":2}'],
      ['message', 'plain'],
    ])
  })

  it('tokenizes HTML without losing a character, even when it is broken', () => {
    for (const html of ['<!doctype html><p class="a" data-x=\'1\' hidden>Hi &amp; <b>you</b></p><!-- c -->', '<a href="x', 'a < b > c', '<img src=x onerror=alert(1)//>', '<!-- open']) {
      expect(tokenizeHtml(html).map((t) => t.text).join('')).toBe(html)
    }
    const kinds = tokenizeHtml('<p class="a">x</p>').map((t) => `${t.kind}:${t.text}`)
    expect(kinds).toEqual(['punct:<', 'tag:p', 'text: ', 'attr:class', 'punct:=', 'value:"a"', 'punct:>', 'text:x', 'punct:</', 'tag:p', 'punct:>'])
  })

  it('matches live messages against the list filters as the server would', () => {
    const message = {
      message_id: 'msg_1', channel: 'email', account: 'acct_a', plan: 'pro', key: 'test_…ro', to: 'ana@example.com', request: { html: '<p>x</p>' },
      status: 'queued', reason: null, status_history: [], created_at: new Date(0).toISOString(),
      email: { from: { email: 'hello@shop.test', name: null }, subject: 'Confirm your account', html: '<p>x</p>' }, text: 'Your code is 123456', links: [], codes: ['123456'],
    } as CapturedMessage
    const summary = summarize(message)
    expect(summary).not.toHaveProperty('request')
    expect(summary.email).not.toHaveProperty('html')
    const q = (query: string) => matchesFilters(summary, new URLSearchParams(query))
    expect(q('')).toBe(true)
    expect(q('channel=email&status=queued&account=acct_a')).toBe(true)
    expect(q('channel=sms')).toBe(false)
    expect(q('account=acct_b')).toBe(false)
    for (const term of ['ANA@', 'shop.test', 'confirm', 'code is 1234']) expect(q(`q=${encodeURIComponent(term)}`), term).toBe(true)
    expect(q('q=nowhere')).toBe(false)
  })
})
