import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LINKED_PAGES, ROOT } from './doc-blocks.js'

/**
 * A relative link in the README or a docs page names a file that exists (issue 33 item 2): a page
 * moved or renamed, or a link written to a page nobody wrote, fails here. Links inside code blocks
 * and inline code are not links; `http(s):`, `mailto:` and in-page `#anchors` are not checked.
 */
function links(page: string): { target: string; line: number }[] {
  const text = readFileSync(join(ROOT, page), 'utf8')
  const found: { target: string; line: number }[] = []
  let fenced = false
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    if (fenced) return
    const prose = line.replace(/`[^`]*`/g, '')
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ target: match[1], line: index + 1 })
  })
  return found
}

describe('docs: relative links', () => {
  it('every relative link of README.md and docs/**.md names a file that exists', () => {
    const broken: string[] = []
    let checked = 0
    for (const page of LINKED_PAGES) {
      for (const { target, line } of links(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue
        const path = decodeURIComponent(target.split('#')[0])
        checked++
        if (!existsSync(normalize(join(ROOT, dirname(page), path)))) broken.push(`${page}:${line} → ${target}`)
      }
    }
    expect(broken).toEqual([])
    expect(checked).toBeGreaterThan(50)
  })
})
