import { describe, expect, it } from 'vitest'
import { previewBanner, previewHeaders, REMOTE_BLOCKED_TEXT, withBanner } from './preview-policy.js'

describe('preview policy', () => {
  it('blocks remote content by default, ignores <base>, lets only the sandbox frame it', () => {
    const headers = previewHeaders({ remote: false })
    expect(headers['Content-Security-Policy']).toBe(
      "sandbox; default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:; base-uri 'none'; frame-ancestors 'self'",
    )
    expect(headers['X-Content-Type-Options']).toBe('nosniff')
    expect(headers['Content-Type']).toBe('text/html; charset=utf-8')
  })

  it('with remote=1 allows http(s) images, styles and fonts, nothing else', () => {
    expect(previewHeaders({ remote: true })['Content-Security-Policy']).toBe(
      "sandbox; default-src 'none'; img-src data: cid: https: http:; style-src 'unsafe-inline' https: http:; font-src data: https: http:; base-uri 'none'; frame-ancestors 'self'",
    )
  })

  it('shows a one-line banner when remote content is blocked, none when loaded', () => {
    expect(previewBanner(false)).toContain(REMOTE_BLOCKED_TEXT)
    expect(previewBanner(false)).not.toMatch(/<script/i)
    expect(previewBanner(true)).toBe('')
    expect(previewBanner(false, '/__sandbox/messages/msg_1/html?token=a"b&remote=1')).toContain(
      'href="/__sandbox/messages/msg_1/html?token=a&quot;b&amp;remote=1"',
    )
  })

  it('puts the banner inside <body>, never before a doctype (quirks mode)', () => {
    expect(withBanner('<!doctype html><html><body class="x"><p>Hi</p></body></html>', '<div>B</div>')).toBe(
      '<!doctype html><html><body class="x"><div>B</div><p>Hi</p></body></html>',
    )
    expect(withBanner('<p>Hi</p>', '<div>B</div>')).toBe('<div>B</div><p>Hi</p>')
    expect(withBanner('<p>Hi</p>', '')).toBe('<p>Hi</p>')
  })
})
