import type { Check } from '../../contract/checks.js'

type SourceLocation = NonNullable<Check['location']>

/**
 * Offsets in a source → `{ line, column, excerpt }` (1-based; the excerpt at most 120 characters of
 * the line, from a little before the offset). The line starts are found once per source; each
 * lookup is a binary search.
 */
export function sourceLocator(source: string): (offset: number) => SourceLocation {
  const starts = [0]
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1)
  return (offset) => {
    const at = Math.max(0, Math.min(offset, source.length))
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (starts[mid]! <= at) low = mid
      else high = mid - 1
    }
    const lineStart = starts[low]!
    const lineEnd = low + 1 < starts.length ? starts[low + 1]! - 1 : source.length
    const from = Math.max(lineStart, at - 20)
    const excerpt = source
      .slice(from, Math.min(lineEnd, from + 120))
      .replace(/\s+/g, ' ')
      .trim()
    return { line: low + 1, column: at - lineStart + 1, excerpt }
  }
}
