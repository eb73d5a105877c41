import { Parser } from 'htmlparser2'
import { describe, expect, it } from 'vitest'
import { MAX_PARSE_DEPTH, writeBounded, type Depth } from './bounded-parse.js'

/** A pass as the extractors and checks run it: depth counted in the callbacks, the deepest seen kept. */
function pass(html: string) {
  const counter: Depth = { depth: 0 }
  let deepest = 0
  let text = ''
  const parser = new Parser({
    onopentag() {
      deepest = Math.max(deepest, ++counter.depth)
    },
    onclosetag() {
      counter.depth--
    },
    ontext(piece) {
      text += piece
    },
  })
  const parsed = writeBounded(parser, html, counter)
  return { parsed, deepest, text, endDepth: counter.depth }
}

describe('writeBounded', () => {
  it('parses an ordinary document whole, in chunks, the depth back to 0 (void, implied and stray closes counted)', () => {
    const html = `<html><body>${'<p>one<p>two<br><img src=x></br></p></p><table><tr><td>cell</table>'.repeat(500)}</body></html>`
    const { parsed, deepest, text, endDepth } = pass(html)
    expect(parsed).toBe(html.length)
    expect(endDepth).toBe(0)
    expect(deepest).toBeLessThan(10)
    expect(text).toBe('onetwocell'.repeat(500))
  })

  it('stops a hostile nesting past the limit: 900 KB of unclosed tables, parsed only a few thousand levels deep', () => {
    const html = '<table><tr><td>'.repeat(60_000)
    const { parsed, deepest, endDepth } = pass(html)
    expect(parsed).toBeLessThan(html.length)
    expect(deepest).toBeGreaterThan(MAX_PARSE_DEPTH)
    // At most one more chunk (4,096 characters) is parsed past the limit.
    expect(deepest).toBeLessThanOrEqual(MAX_PARSE_DEPTH + 4096)
    expect(endDepth).toBe(0)
  })
})
