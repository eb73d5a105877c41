import { describe, expect, it } from 'vitest'
import { hasRemoteContent } from './remote-content.js'

describe('hasRemoteContent', () => {
  it('finds remote images, backgrounds, stylesheets and imports', () => {
    expect(hasRemoteContent('<img src="https://cdn.test/a.png">')).toBe(true)
    expect(hasRemoteContent('<td background="//cdn.test/bg.png">')).toBe(true)
    expect(hasRemoteContent('<div style="background:url( \'https://cdn.test/x.png\')">')).toBe(true)
    expect(hasRemoteContent('<link rel="stylesheet" href="https://fonts.test/a.css">')).toBe(true)
    expect(hasRemoteContent('<style>@import "https://fonts.test/a.css";</style>')).toBe(true)
  })

  it('does not count links, inline images or plain text', () => {
    expect(hasRemoteContent('<p>Hi <a href="https://example.com/start">start</a></p>')).toBe(false)
    expect(hasRemoteContent('<img src="data:image/png;base64,AAAA">')).toBe(false)
    expect(hasRemoteContent('<p>see https://example.com</p>')).toBe(false)
  })
})
