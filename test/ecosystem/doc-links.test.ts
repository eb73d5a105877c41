import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LINKED_PAGES, ROOT } from './doc-blocks.js'

/**
 * A relative link in the README or a docs page names a file that exists (issue 33 item 2): a page
 * moved or renamed, or a link written to a page nobody wrote, fails here; so does a `#anchor` to a
 * heading a page does not have (GitHub's heading ids). Links inside code blocks and inline code are
 * not links; `http(s):` and `mailto:` links are not checked.
 */
/** GitHub's id of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

function anchors(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/^\s*```[\s\S]*?^\s*```/gm, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading)))
}
function links(page: string): { target: string; line: number }[] {
  const text = readFileSync(join(ROOT, page), 'utf8')
  const found: { target: string; line: number }[] = []
  let fenced = false
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    if (fenced) return
    const prose = line.replace(/`[^`]*`/g, '')
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      found.push({ target: match[1], line: index + 1 })
  })
  return found
}

describe('docs: relative links', () => {
  it('every relative link of README.md and docs/**.md names a file that exists', () => {
    const broken: string[] = []
    let checked = 0
    for (const page of LINKED_PAGES) {
      for (const { target, line } of links(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
        const [path, anchor] = decodeURIComponent(target).split('#')
        const file = path === '' ? page : normalize(join(dirname(page), path))
        checked++
        if (!existsSync(join(ROOT, file))) broken.push(`${page}:${line} → ${target}`)
        else if (anchor !== undefined && file.endsWith('.md') && !anchors(file).has(anchor))
          broken.push(`${page}:${line} → ${target} (no such heading)`)
      }
    }
    expect(broken).toEqual([])
    expect(checked).toBeGreaterThan(50)
  })

  it('the package ships the README and the docs pages it links to (package.json files)', () => {
    const { files } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/*.md', 'docs/decisions']))
  })
})
