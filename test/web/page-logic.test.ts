import { afterEach, describe, expect, it, vi } from 'vitest'
import { PagedFeed } from '../../src/ui/web/app/feed.js'
import { follow } from '../../src/ui/web/app/follow.js'
import { tokenizeHtml } from '../../src/ui/web/app/html-tokens.js'
import { matchesFilters, newerStatus, type StatusFields } from '../../src/ui/web/app/format.js'
import { summarize } from '../../src/domain/channels/readings.js'
import { EventStreamParser } from '../../src/ui/web/app/sse.js'
import type { CapturedMessage } from '../../src/ui/web/app/types.js'

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
    for (const html of [
      '<!doctype html><p class="a" data-x=\'1\' hidden>Hi &amp; <b>you</b></p><!-- c -->',
      '<a href="x',
      'a < b > c',
      '<img src=x onerror=alert(1)//>',
      '<!-- open',
    ]) {
      expect(
        tokenizeHtml(html)
          .map((t) => t.text)
          .join(''),
      ).toBe(html)
    }
    const kinds = tokenizeHtml('<p class="a">x</p>').map((t) => `${t.kind}:${t.text}`)
    expect(kinds).toEqual([
      'punct:<',
      'tag:p',
      'text: ',
      'attr:class',
      'punct:=',
      'value:"a"',
      'punct:>',
      'text:x',
      'punct:</',
      'tag:p',
      'punct:>',
    ])
  })

  it('matches live messages against the list filters as the server would', () => {
    const message = {
      message_id: 'msg_1',
      channel: 'email',
      account: 'acct_a',
      plan: 'pro',
      key: 'test_…ro',
      to: 'ana@example.com',
      request: { html: '<p>x</p>' },
      status: 'queued',
      reason: null,
      status_history: [],
      created_at: new Date(0).toISOString(),
      email: { from: { email: 'hello@shop.test', name: null }, subject: 'Confirm your account', html: '<p>x</p>' },
      text: 'Your code is 123456',
      links: [],
      codes: ['123456'],
    } as unknown as CapturedMessage
    const summary = summarize(message)
    expect(summary).not.toHaveProperty('request')
    expect((summary as { email: unknown }).email).not.toHaveProperty('html')
    const q = (query: string) => matchesFilters(summary, new URLSearchParams(query))
    expect(q('')).toBe(true)
    expect(q('channel=email&status=queued&account=acct_a')).toBe(true)
    expect(q('channel=sms')).toBe(false)
    expect(q('account=acct_b')).toBe(false)
    for (const term of ['ANA@', 'shop.test', 'confirm', 'code is 1234'])
      expect(q(`q=${encodeURIComponent(term)}`), term).toBe(true)
    expect(q('q=nowhere')).toBe(false)
    // The server's rule: every word, in any order (a live message must join the list the server would list).
    for (const term of ['account confirm', 'ANA   shop', '123456 your code'])
      expect(q(`q=${encodeURIComponent(term)}`), term).toBe(true)
    expect(q(`q=${encodeURIComponent('confirm nowhere')}`)).toBe(false)
  })

  it('keeps the furthest status of a message whose step arrived while it was being fetched', () => {
    const queued: StatusFields = {
      status: 'queued',
      reason: null,
      status_history: [{ status: 'queued', at: '2026-11-22T10:00:00.000Z' }],
    }
    const sent: StatusFields = {
      status: 'sent',
      reason: null,
      status_history: [...queued.status_history, { status: 'sent', at: '2026-11-22T10:00:01.000Z' }],
    }
    // The event came first; the fetched copy was read on the server before that step.
    const stepped = newerStatus(undefined, sent)
    expect(stepped).toEqual(sent)
    const fetched = { message_id: 'msg_1', channel: 'sms', ...queued } as unknown as CapturedMessage
    const shown = newerStatus(fetched, stepped)
    expect(shown).toMatchObject({ message_id: 'msg_1', channel: 'sms', status: 'sent' })
    expect(shown.status_history).toHaveLength(2)
    // An older step (or the same one again) changes nothing.
    expect(newerStatus(shown, queued)).toBe(shown)
    expect(newerStatus(shown, sent)).toBe(shown)
    expect(newerStatus(fetched, undefined)).toBe(fetched)
  })

  describe('the live list (PagedFeed)', () => {
    afterEach(() => vi.unstubAllGlobals())

    /** fetch answers held until `answer(n, items)`: the list's page 1 read on the server before the events. */
    function heldFetch() {
      const held: Array<(items: string[]) => void> = []
      vi.stubGlobal(
        'fetch',
        () =>
          new Promise<Response>((resolve) => {
            held.push((items) =>
              resolve(
                new Response(
                  JSON.stringify({
                    data: items.map((id) => ({ id })),
                    pagination: { page: 1, limit: 100, total: items.length, pages: 1 },
                  }),
                ),
              ),
            )
          }),
      )
      return { answer: (n: number, items: string[]) => held[n](items), count: () => held.length }
    }
    const ids = (feed: PagedFeed<{ id: string }>) => feed.rows.map((row) => row?.id)

    it('keeps what arrived live while its first page was on the way (the page read on the server before it)', async () => {
      const server = heldFetch()
      const feed = new PagedFeed<{ id: string }>({ path: '/__sandbox/requests', key: (e) => e.id })
      const loading = feed.reload()
      feed.prepend({ id: 'new' }) // the event stream was quicker than the list
      feed.remove('gone') // deleted meanwhile, still in the page the server read
      server.answer(0, ['gone', 'older'])
      await loading
      expect(ids(feed)).toEqual(['new', 'older'])
      // An item the page already holds is not listed twice.
      const again = feed.reload()
      feed.prepend({ id: 'new' })
      server.answer(1, ['new', 'older'])
      await again
      expect(ids(feed)).toEqual(['new', 'older'])
      // Once page 1 is in, live changes apply once, as before.
      feed.prepend({ id: 'newer' })
      expect(ids(feed)).toEqual(['newer', 'new', 'older'])
    })

    it('re-renders a component whose feed changed between its render and its subscription', async () => {
      const feed = new PagedFeed<{ id: string }>({ path: '/__sandbox/requests', key: (e) => e.id })
      const version = () => feed.version
      // Rendered, then an event before the effect subscribes (effects run after paint).
      const rendered = feed.version
      feed.prepend({ id: 'during-mount' })
      const rerender = vi.fn()
      const unsubscribe = follow(feed, version, rendered, rerender)
      expect(rerender).toHaveBeenCalledTimes(1)
      // Nothing changed since the render: no extra render, and later changes still reach it.
      const quiet = vi.fn()
      const stop = follow(feed, version, feed.version, quiet)
      expect(quiet).not.toHaveBeenCalled()
      feed.prepend({ id: 'later' })
      await vi.waitFor(() => expect(quiet).toHaveBeenCalledTimes(1))
      unsubscribe()
      stop()
    })
  })
})
