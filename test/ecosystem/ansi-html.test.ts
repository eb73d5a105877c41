import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script of the docs tooling, without declarations
import { ansiLines, ansiToHtml } from '../../scripts/ansi-html.mjs'

/** The converter `npm run docs:shots` draws the terminal UI's screenshot with (scripts/ansi-html.mjs). */
describe('docs:shots ANSI to HTML', () => {
  const lines = ansiLines as (ansi: string) => string

  it('colours runs as the SGR sequences say, and resets', () => {
    const html = lines('\x1b[1;35mSMS\x1b[0m plain \x1b[38;5;196mred\x1b[39m \x1b[48;2;10;20;30mbg\x1b[0m')
    expect(html).toContain('<span style="color:#bc3fbc;font-weight:bold">SMS</span>')
    expect(html).toContain('<span style="color:#cccccc"> plain </span>')
    expect(html).toContain('<span style="color:rgb(255,0,0)">red</span>')
    expect(html).toContain('background:rgb(10,20,30)">bg</span>')
  })

  it('swaps the colours of inverse text, and the bright colours are the bright half of the theme', () => {
    expect(lines('\x1b[7mOutbox\x1b[27m')).toContain('<span style="color:#1e1e1e;background:#cccccc">Outbox</span>')
    expect(lines('\x1b[93mkey\x1b[0m')).toContain('color:#f5f543')
  })

  it('escapes the text and drops other escapes (hyperlinks, cursor moves)', () => {
    const html = lines('\x1b]8;;https://example.com\x07<b>&link</b>\x1b]8;;\x07\x1b[2K\x1b[?25l')
    expect(html).toBe('<span style="color:#cccccc">&lt;b&gt;&amp;link&lt;/b&gt;</span>')
  })

  it('keeps one line per line, and a page with the title and the columns', () => {
    expect(lines('a\nb\n\n').split('\n')).toHaveLength(2)
    const page = (ansiToHtml as (ansi: string, options: { title: string; columns: number }) => string)('x', {
      title: 'sendbox <ui>',
      columns: 80,
    })
    expect(page).toContain('sendbox &lt;ui&gt;')
    expect(page).toContain('width: 80ch')
  })
})
