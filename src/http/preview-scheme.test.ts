import { describe, expect, it } from 'vitest'
import { FORCED_DARK_CSS, withScheme } from './preview-scheme.js'

const EMAIL =
  '<style>body{color:#000}@media (prefers-color-scheme: dark){body{color:#fff}}@media ( Prefers-Color-Scheme : light ){p{color:red}}</style><link rel=stylesheet media="(prefers-color-scheme: dark)" href="dark.css"><p>Hi</p>'

describe('withScheme', () => {
  it("dark: the email's dark queries hold and its light ones do not, in styles and media attributes", () => {
    const html = withScheme(EMAIL, 'dark')
    expect(html).not.toMatch(/prefers-color-scheme/i)
    expect(html).toContain('@media (min-width:0px){body{color:#fff}}')
    expect(html).toContain('@media (max-width:0px){p{color:red}}')
    expect(html).toContain('media="(min-width:0px)"')
    expect(html).not.toContain(FORCED_DARK_CSS)
  })

  it('light turns the dark queries off; dark-forced too, and adds the inversion last', () => {
    expect(withScheme(EMAIL, 'light')).toContain('@media (max-width:0px){body{color:#fff}}')
    const forced = withScheme(EMAIL, 'dark-forced')
    expect(forced).toContain('@media (max-width:0px){body{color:#fff}}')
    expect(forced.endsWith(`<style data-sendbox-forced-dark>${FORCED_DARK_CSS}</style>`)).toBe(true)
  })

  it('leaves an email without colour-scheme queries as it is (but for the forced style)', () => {
    expect(withScheme('<p>plain</p>', 'dark')).toBe('<p>plain</p>')
    expect(withScheme('<p>plain</p>', 'light')).toBe('<p>plain</p>')
  })
})
