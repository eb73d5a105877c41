import cliTruncate from 'cli-truncate'
import stringWidth from 'string-width'
import { printable, safeText } from '../../domain/safe-text.js'

/**
 * Terminal cells: how wide text is on screen, cutting it to a width, wrapping it into rows.
 *
 * Widths come from `string-width` (what Ink measures with), asked once per code point and per
 * emoji cluster and cached. The scan itself is one linear pass over char codes: `string-width`
 * and `wrap-ansi` segment with `Intl.Segmenter`, which costs microseconds per character and is
 * quadratic in V8 on long strings (40 KB: 2 s; a 1 MiB line did not finish in minutes), and
 * the UI shares its event loop with the API. docs/decisions/terminal-ui.md has the figures.
 */

/** Width of each code point, + 1 (0 = not asked yet). Filled lazily from `string-width`. */
const codePointWidths = new Uint8Array(0x110000)
/** Widths of emoji clusters (ZWJ sequences, flags, keycaps, skin tones), bounded. */
const clusterWidths = new Map<string, number>()
const MAX_CLUSTERS = 4_096

/** Cells one code point takes: 1 for printable ASCII, 2 for wide (CJK, emoji), 0 for combining marks and joiners. */
export function codePointWidth(cp: number): number {
  if (cp >= 0x20 && cp < 0x7f) return 1
  // Control characters and lone surrogates are shown as one cell ({@link printable}: a marker, a space, U+FFFD).
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029 || (cp >= 0xd800 && cp <= 0xdfff))
    return 1
  const known = codePointWidths[cp]
  if (known !== 0) return known - 1
  const width = stringWidth(String.fromCodePoint(cp))
  codePointWidths[cp] = width + 1
  return width
}

const ZWJ = 0x200d
const isVariationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)
const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff
const isRegionalIndicator = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff
const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f
const KEYCAP = 0x20e3

/** True when `cp` continues the cluster before it in a way that changes its width (not a plain combining mark). */
function extendsEmoji(cp: number): boolean {
  return cp === ZWJ || isVariationSelector(cp) || isSkinTone(cp) || isTag(cp) || cp === KEYCAP
}

/** Where the last {@link scanCluster} ended (UTF-16 index) and how wide the cluster was. Module scratch: no allocation per character. */
let scannedEnd = 0
let scannedWidth = 0

/**
 * Reads the cluster starting at `index` into {@link scannedEnd}/{@link scannedWidth}: a code point
 * plus the code points that join it. Plain combining marks need no joining (they are zero cells
 * and never start a row, see {@link wrapSpans}); ZWJ sequences, variation selectors, skin tones,
 * tags, keycaps and flag pairs are measured whole by `string-width`, as a terminal draws them.
 */
function scanCluster(text: string, index: number): void {
  const unit = text.charCodeAt(index)
  // Printable ASCII is one cell, unless a keycap sequence follows (`1️⃣`: nothing that joins is below U+200D).
  if (unit >= 0x20 && unit < 0x7f && !(index + 1 < text.length && text.charCodeAt(index + 1) >= 0x200d)) {
    scannedEnd = index + 1
    scannedWidth = 1
    return
  }
  const cp = text.codePointAt(index)!
  let end = index + (cp > 0xffff ? 2 : 1)
  const nextUnit = end < text.length ? text.charCodeAt(end) : 0
  // Nothing that joins into an emoji sequence is below U+200D, or a printable ASCII character.
  if (nextUnit < 0x200d) {
    scannedEnd = end
    scannedWidth = codePointWidth(cp)
    return
  }
  let next = text.codePointAt(end)!
  if (isRegionalIndicator(cp) && isRegionalIndicator(next)) {
    scannedEnd = end + 2
    scannedWidth = 2
    return
  }
  if (!extendsEmoji(next)) {
    scannedEnd = end
    scannedWidth = codePointWidth(cp)
    return
  }
  // An emoji sequence: take joiners, modifiers and the code point after each ZWJ (bounded: real ones are < 30 units).
  const start = index
  while (end < text.length && end - start < 64) {
    next = text.codePointAt(end)!
    if (next === ZWJ) {
      end += 1
      if (end < text.length) end += text.codePointAt(end)! > 0xffff ? 2 : 1
    } else if (extendsEmoji(next) || codePointWidth(next) === 0) {
      end += next > 0xffff ? 2 : 1
    } else break
  }
  const cluster = text.slice(start, end)
  let width = clusterWidths.get(cluster)
  if (width === undefined) {
    width = stringWidth(cluster)
    if (clusterWidths.size >= MAX_CLUSTERS) clusterWidths.clear()
    clusterWidths.set(cluster, width)
  }
  scannedEnd = end
  scannedWidth = width
}

/** One grapheme-ish cluster read at `index`: its end (exclusive, in UTF-16 units) and its width. */
export interface Cluster {
  end: number
  width: number
}

/** The cluster starting at `index` (see {@link scanCluster}). */
export function clusterAt(text: string, index: number): Cluster {
  scanCluster(text, index)
  return { end: scannedEnd, width: scannedWidth }
}

/** Cells `text` takes on screen (the text is expected {@link printable}). Linear in its length. */
export function cellWidth(text: string): number {
  let width = 0
  for (let i = 0; i < text.length;) {
    scanCluster(text, i)
    width += scannedWidth
    i = scannedEnd
  }
  return width
}

/** A row of client text made safe to print: see ./safe-text.ts, the one place that decides. */
export { printable, safeText } from '../../domain/safe-text.js'

/**
 * The longest start of `text` that fits in `width` cells, as a UTF-16 index. Stops scanning at
 * the width, so a 1 MiB subject costs what a screen row costs.
 */
export function fitIndex(text: string, width: number): { end: number; width: number } {
  let used = 0
  let i = 0
  const maxUnits = maxRowUnits(width)
  while (i < text.length) {
    scanCluster(text, i)
    if (used + scannedWidth > width || scannedEnd > maxUnits) break
    used += scannedWidth
    i = scannedEnd
  }
  return { end: i, width: used }
}

/**
 * One row of a list: `text` cut to `width` cells with `…` (by `cli-truncate`), control characters
 * neutralised. Only the part that can show is measured, however long the value is.
 */
export function fitCells(raw: string, width: number): string {
  if (width <= 0) return ''
  // Made safe first (a removed escape sequence takes no cells), a bounded start only: a sequence
  // cut at the bound loses its introducer, so nothing of it reaches the terminal either way.
  const bound = maxRowUnits(width + 1) * 4
  const cut = raw.length > bound
  const text = safeText(cut ? raw.slice(0, bound) : raw)
  // At most width + 1 cells are needed to know whether it is cut; the rest is never looked at.
  const { end } = fitIndex(text, width + 1)
  const head = printable(text.slice(0, end))
  if (end >= text.length && !cut) return cliTruncate(head, width)
  return cliTruncate(`${head}…`, width)
}

/** `text` padded with spaces to `width` cells (cut first when longer). */
export function padCells(text: string, width: number): string {
  const fitted = fitCells(text, width)
  return fitted + ' '.repeat(Math.max(0, width - cellWidth(fitted)))
}

/** A row cut out of a longer text: `[start, end)` in UTF-16 units of the source line. */
export interface RowSpan {
  start: number
  end: number
}

const SPACE = 0x20

/** Code units one row may hold: a cluster bomb (one letter and a million combining marks) still breaks. */
export function maxRowUnits(width: number): number {
  return width * 8 + 32
}

/**
 * Splits one line (no newlines) into rows of at most `width` cells, from `start`: at the last
 * space that fits, or inside a word longer than a row. Nothing is dropped: spaces where a row
 * breaks stay at the end of that row, and only those that do not fit are skipped (a wrapped line
 * shows them as the row's end anyway). Zero-width code points (combining marks) do not start a
 * row. Stops after `maxRows` rows and returns where to go on (`line.length` when done), so a
 * 1 MiB line can be wrapped a slice at a time. Linear; no regular expression.
 */
export function wrapSpans(line: string, width: number, out: RowSpan[], start = 0, maxRows = Infinity): number {
  const cells = Math.max(1, width)
  const maxUnits = maxRowUnits(cells)
  if (line.length === 0) {
    out.push({ start: 0, end: 0 })
    return 0
  }
  let rows = 0
  while (start < line.length && rows < maxRows) {
    rows++
    let used = 0
    let i = start
    /** End of the row if it breaks after the last space seen (the index after that space). */
    let breakAt = -1
    while (i < line.length) {
      const code = line.charCodeAt(i)
      scanCluster(line, i)
      if (i > start && (used + scannedWidth > cells || scannedEnd - start > maxUnits)) break
      used += scannedWidth
      i = scannedEnd
      if (code === SPACE) breakAt = i
    }
    if (i >= line.length) {
      out.push({ start, end: i })
      return line.length
    }
    // The row is full. A space right at the break: the row ends there, the spaces are skipped.
    if (line.charCodeAt(i) === SPACE) {
      out.push({ start, end: i })
      while (i < line.length && line.charCodeAt(i) === SPACE) i++
      start = i
      continue
    }
    if (breakAt > start) {
      out.push({ start, end: breakAt })
      start = breakAt
    } else {
      out.push({ start, end: i })
      start = i
    }
  }
  return start
}

/**
 * `text` as screen rows of at most `width` cells, all at once: split at newlines (`\r\n`, `\r`,
 * `\n`) once made {@link safeText}, wrapped by {@link wrapSpans}, each row made {@link printable}. For short text (labels,
 * notices); a message body goes through `RowSource`, a slice at a time.
 */
export function wrapRows(raw: string, width: number): string[] {
  const text = safeText(raw)
  const rows: string[] = []
  const spans: RowSpan[] = []
  let from = 0
  while (from <= text.length) {
    let nl = from
    while (nl < text.length) {
      const c = text.charCodeAt(nl)
      if (c === 0x0a || c === 0x0d) break
      nl++
    }
    const line = text.slice(from, nl)
    spans.length = 0
    wrapSpans(line, width, spans)
    for (const span of spans) rows.push(printable(line.slice(span.start, span.end)))
    if (nl >= text.length) break
    from = text.charCodeAt(nl) === 0x0d && text.charCodeAt(nl + 1) === 0x0a ? nl + 2 : nl + 1
  }
  return rows
}
