import type { Check } from '../../../contract/checks.js'

type SourceLocation = NonNullable<Check['location']>

/** The longest excerpt a finding carries (the contract says 120 characters). */
export const EXCERPT_LENGTH = 120

/**
 * Turns offsets into an HTML source into 1-based lines and columns (columns count UTF-16 units,
 * as editors do) with an excerpt: the line starts are found once, each lookup is a binary search.
 */
export class SourceLines {
  private readonly starts: number[] = [0]

  constructor(private readonly source: string) {
    for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1)
  }

  /** Where `start` is, with the source from `start` to `end` (inclusive) as the excerpt, whitespace collapsed. */
  locate(start: number, end = start): SourceLocation {
    let low = 0
    let high = this.starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.starts[middle] <= start) low = middle
      else high = middle - 1
    }
    const raw = this.source.slice(start, Math.min(end + 1, start + EXCERPT_LENGTH * 2))
    const collapsed = raw.replace(/\s+/g, ' ')
    const excerpt = collapsed.length > EXCERPT_LENGTH ? `${collapsed.slice(0, EXCERPT_LENGTH - 1)}…` : collapsed
    return { line: low + 1, column: start - this.starts[low] + 1, excerpt }
  }
}
