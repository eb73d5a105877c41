import { describe, expect, it } from 'vitest'
import { GMAIL_CLIP_BYTES, MAX_FINDINGS_PER_RULE, staticEmailChecks } from './static.js'

const page = (body: string) => `<!doctype html>\n<html lang="en"><body>\n${body}\n</body></html>`
const ids = async (html: string) => (await staticEmailChecks(html)).map((c) => c.id)

describe('static email checks', () => {
  it("finds the issue's bad email: alt-less image, javascript:, http: and mismatched text, one check each, with locations", async () => {
    const html = page(
      [
        '<div style="display:flex">',
        '<img src="https://cdn.example.com/logo.png">',
        '<a href="javascript:alert(1)">Open</a>',
        '<a href="http://example.com/offer">Offer</a>',
        '<a href="https://evil.example.net/login">https://bank.example.com</a>',
        '</div>',
      ].join('\n'),
    )
    const checks = await staticEmailChecks(html)
    expect(checks.map((c) => c.id)).toEqual([
      'images.missing-alt',
      'links.javascript',
      'links.http',
      'links.text-mismatch',
    ])
    expect(checks[0]).toMatchObject({
      severity: 'warning',
      category: 'accessibility',
      location: { line: 4, column: 1 },
    })
    expect(checks[0].location!.excerpt).toBe('<img src="https://cdn.example.com/logo.png">')
    expect(checks[1]).toMatchObject({
      severity: 'error',
      category: 'links',
      link: 'javascript:alert(1)',
      location: { line: 5, column: 1 },
    })
    expect(checks[2]).toMatchObject({ severity: 'warning', link: 'http://example.com/offer' })
    expect(checks[3].message).toContain('bank.example.com')
    expect(checks[3].message).toContain('evil.example.net')
  })

  it('reads a script scheme as a browser does: case, entities and controls do not hide it', async () => {
    expect(
      await ids(
        page('<a href=" JaVa&#x09;Script:alert(1)">x</a><a href="data:text/html,hi">y</a><a href="vbscript:x">z</a>'),
      ),
    ).toEqual(['links.javascript', 'links.data', 'links.vbscript'])
  })

  it('accepts data: images, alt="" and decorative images', async () => {
    expect(
      await ids(
        page(
          '<img src="data:image/png;base64,AAAA" alt="Logo"><img src="https://a.example/x.png" alt=""><img src="https://a.example/y.png" role="presentation">',
        ),
      ),
    ).toEqual([])
  })

  it('flags empty and # targets, relative links, and links into private addresses', async () => {
    const html = page(
      '<a href="">a</a><a href="#">b</a><a href="/account">c</a><a href="http://localhost:3000/verify">d</a><a href="https://192.168.1.4/x">e</a><a href="mailto:a@example.com">f</a><a name="top">g</a>',
    )
    expect(await ids(html)).toEqual([
      'links.empty',
      'links.empty',
      'links.relative',
      'links.http',
      'links.private-address',
      'links.private-address',
    ])
  })

  it('does not flag text naming the same host (www. aside)', async () => {
    expect(
      await ids(page('<a href="https://www.example.com/a">example.com</a><a href="https://example.com/">Example</a>')),
    ).toEqual([])
  })

  it('warns about vague link text unless labelled', async () => {
    expect(
      await ids(
        page(
          '<a href="https://example.com/a">Click here</a><a href="https://example.com/b">Read more »</a><a href="https://example.com/c" aria-label="Your order">here</a>',
        ),
      ),
    ).toEqual(['accessibility.link-text', 'accessibility.link-text'])
  })

  it('flags layout tables without role="presentation", not data tables', async () => {
    const html = page(
      '<table><tr><td>layout</td></tr></table>\n<table role="presentation"><tr><td>ok</td></tr></table><table><tr><th>Item</th></tr></table>',
    )
    const checks = await staticEmailChecks(html)
    expect(checks.map((c) => c.id)).toEqual(['accessibility.layout-table'])
    expect(checks[0].location).toMatchObject({ line: 3, column: 1 })
  })

  it('flags <html> without lang, and notes a fragment', async () => {
    expect(await ids('<html><body>Hi</body></html>')).toEqual(['accessibility.html-lang'])
    expect(await ids('<p>Hi</p>')).toEqual(['accessibility.document-lang'])
  })

  it('warns when Gmail would clip the HTML, with the size', async () => {
    const checks = await staticEmailChecks(page(`<p>${'x'.repeat(GMAIL_CLIP_BYTES)}</p>`))
    expect(checks[0]).toMatchObject({ id: 'size.gmail-clip', severity: 'warning', category: 'size' })
    expect(checks[0].message).toMatch(/104,\d{3} bytes/)
    expect(await ids(page('<p>small</p>'))).toEqual([])
  })

  it('says where a hostile nesting stopped the checks, and keeps what it found before', async () => {
    const html = `${page('<a href="javascript:alert(1)">x</a>')}${'<div>'.repeat(3_000)}<a href="javascript:void 0">late</a>`
    const checks = await staticEmailChecks(html)
    const deep = checks.find((c) => c.id === 'size.nesting-depth')
    expect(deep).toMatchObject({ severity: 'warning', category: 'size', location: { line: expect.any(Number) } })
    expect(deep!.message).toMatch(/nested more than 1,024 deep: the last [\d,]+ characters were not checked/)
    expect(checks.filter((c) => c.id === 'links.javascript')).toHaveLength(1)
    expect(await ids(page('<div>'.repeat(900) + 'deep but legal'))).toEqual([])
  })

  it('lists at most 100 findings of a rule, then one saying how many more', async () => {
    const checks = await staticEmailChecks(page('<img src="https://a.example/x.png">'.repeat(150)))
    expect(checks).toHaveLength(MAX_FINDINGS_PER_RULE + 1)
    expect(checks.at(-1)!.message).toMatch(/^50 more/)
  })
})
