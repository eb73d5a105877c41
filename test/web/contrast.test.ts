import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/** Issue 26 item 4: the two colour pairs that failed WCAG AA (4.5:1 for text) in the web inbox. */
const css = readFileSync(new URL('../../src/ui/web/styles.css', import.meta.url), 'utf8')
const [light, dark] = [
  css.slice(0, css.indexOf('@media (prefers-color-scheme: dark)')),
  css.slice(css.indexOf('@media (prefers-color-scheme: dark)')),
]
const variable = (block: string, name: string) => new RegExp(`${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(block)![1]

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

describe('web inbox colour contrast (WCAG AA, 4.5:1)', () => {
  it('the delivered status badge on the selected row', () => {
    expect(contrast(variable(light, '--ok'), variable(light, '--bg-selected'))).toBeGreaterThanOrEqual(4.5)
    expect(contrast(variable(dark, '--ok'), variable(dark, '--bg-selected'))).toBeGreaterThanOrEqual(4.5)
  })
  it('the muted text of a WhatsApp bubble, light and dark', () => {
    expect(contrast(variable(light, '--wa-muted'), variable(light, '--bubble-wa'))).toBeGreaterThanOrEqual(4.5)
    expect(contrast(variable(dark, '--wa-muted'), variable(dark, '--bubble-wa'))).toBeGreaterThanOrEqual(4.5)
  })
})
