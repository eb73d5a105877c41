import { printable, wrapSpans, type RowSpan } from './cells.js'
import { safeText } from '../../domain/safe-text.js'
import type { Colour } from './format.js'

/** A run of text with one style; `link` makes it a terminal hyperlink (OSC 8) where the terminal supports it. */
export interface Segment {
  text: string
  color?: Colour
  background?: Colour
  bold?: boolean
  dim?: boolean
  inverse?: boolean
  link?: string
}

/** One screen row of a scrollable view, at most the view's width. */
export type StyledLine = readonly Segment[]

type Style = Omit<Segment, 'text'>

/** Shorthand for a segment. */
export function seg(text: string, style: Style = {}): Segment {
  return { text, ...style }
}

/** What a page is made of, in order. `text` and `links` are wrapped a slice at a time. */
export type Block =
  /** Rows as they are (each already fits the width). */
  | { kind: 'rows'; rows: readonly StyledLine[] }
  /** Text wrapped to the width; `highlight` marks these strings (codes) wherever a row contains them. */
  | { kind: 'text'; text: string; style?: Style; highlight?: readonly string[] }
  /** Numbered URLs, each in full across as many rows as it takes, each row a hyperlink to the whole URL. */
  | { kind: 'links'; links: readonly string[]; anchor?: string }

/** Rows produced per wrap call before the time budget is checked again. */
const ROWS_PER_STEP = 64
const HIGHLIGHT: Style = { color: 'black', background: 'yellow', bold: true }

/** Splits a row of text into plain and highlighted segments (every occurrence of every string in `marks`). */
function highlighted(text: string, style: Style, marks: readonly string[]): StyledLine {
  if (marks.length === 0 || text.length === 0) return [seg(text, style)]
  const out: Segment[] = []
  let from = 0
  for (;;) {
    let at = -1
    let mark = ''
    for (const m of marks) {
      if (m.length === 0) continue
      const i = text.indexOf(m, from)
      if (i !== -1 && (at === -1 || i < at)) {
        at = i
        mark = m
      }
    }
    if (at === -1) break
    if (at > from) out.push(seg(text.slice(from, at), style))
    out.push(seg(mark, HIGHLIGHT))
    from = at + mark.length
  }
  if (from < text.length) out.push(seg(text.slice(from), style))
  return out.length > 0 ? out : [seg(text, style)]
}

/**
 * A long view (a message's body and links) as rows of one width, produced on demand: `fill`
 * wraps until a row count is reached or a time budget is spent, and resumes where it stopped,
 * even inside a 1 MiB line. The UI asks for the rows on screen synchronously and lets the rest be
 * wrapped in slices between other work, so the API sharing the event loop keeps answering.
 * Rows, once made, are kept: each message's text is wrapped once per width.
 */
export class RowSource {
  readonly rows: StyledLine[] = []
  /** First row of each anchored block (`links`), once reached. */
  readonly anchors = new Map<string, number>()
  done = false

  private block = 0
  /** In a text block: offset of the next line; in a links block: index of the next link. */
  private next = 0
  /** The line being wrapped ({@link safeText}, not yet a printable row) and where in it to go on; null between lines. */
  private line: string | null = null
  private at = 0
  private readonly spans: RowSpan[] = []

  constructor(
    private readonly blocks: readonly Block[],
    readonly width: number,
  ) {
    this.done = blocks.length === 0
  }

  /** Wraps until there are `rows` rows (or all), or `budgetMs` has passed. Returns true when all are made. */
  fill(rows: number, budgetMs = Infinity): boolean {
    const started = budgetMs === Infinity ? 0 : performance.now()
    while (!this.done && this.rows.length < rows) {
      this.step()
      if (budgetMs !== Infinity && performance.now() - started >= budgetMs) break
    }
    return this.done
  }

  private finishBlock(): void {
    this.block++
    this.next = 0
    this.line = null
    this.at = 0
    if (this.block >= this.blocks.length) this.done = true
  }

  private step(): void {
    const block = this.blocks[this.block]
    if (block.kind === 'rows') {
      this.rows.push(...block.rows)
      this.finishBlock()
    } else if (block.kind === 'text') {
      this.stepText(block)
    } else {
      this.stepLinks(block)
    }
  }

  private stepText(block: Extract<Block, { kind: 'text' }>): void {
    const { text } = block
    if (this.line === null) {
      if (this.next > text.length) return this.finishBlock()
      let nl = this.next
      while (nl < text.length) {
        const c = text.charCodeAt(nl)
        if (c === 0x0a || c === 0x0d) break
        nl++
      }
      // Made safe a line at a time (a 1 MiB body is never copied whole): an escape sequence
      // split by a line break loses its introducer on one line and its terminator on the next.
      this.line = safeText(text.slice(this.next, nl))
      this.at = 0
      this.next =
        nl >= text.length
          ? text.length + 1
          : text.charCodeAt(nl) === 0x0d && text.charCodeAt(nl + 1) === 0x0a
            ? nl + 2
            : nl + 1
    }
    const line = this.line
    this.spans.length = 0
    this.at = wrapSpans(line, this.width, this.spans, this.at, ROWS_PER_STEP)
    const style = block.style ?? {}
    for (const span of this.spans)
      this.rows.push(highlighted(printable(line.slice(span.start, span.end)), style, block.highlight ?? []))
    if (this.at >= line.length) this.line = null
  }

  private stepLinks(block: Extract<Block, { kind: 'links' }>): void {
    if (this.next === 0 && this.line === null && block.anchor) this.anchors.set(block.anchor, this.rows.length)
    if (this.next >= block.links.length) return this.finishBlock()
    const number = String(block.links.length).length
    const indent = number + 1
    // The row shows the safe URL and its hyperlink (OSC 8) opens exactly that.
    const url = safeText(block.links[this.next])
    if (this.line === null) {
      this.line = url
      this.at = 0
    }
    const first = this.at === 0
    this.spans.length = 0
    this.at = wrapSpans(url, Math.max(1, this.width - indent), this.spans, this.at, ROWS_PER_STEP)
    this.spans.forEach((span, i) => {
      const label = first && i === 0 ? `${String(this.next + 1).padStart(number)} ` : ' '.repeat(indent)
      // The hyperlink's target is the link as shown (stored links are serialised URLs already; this keeps it so whatever comes in).
      this.rows.push([
        seg(label, { color: 'yellow', bold: true }),
        seg(printable(url.slice(span.start, span.end)), { color: 'cyan', link: printable(url) }),
      ])
    })
    if (this.at >= url.length) {
      this.line = null
      this.next++
    }
  }
}

/**
 * Row sources kept for reuse: scrolling, live status changes and switching back to a message
 * never wrap its text again. Bounded (least recently used goes), keyed by message, width and mode.
 */
export class RowSourceCache {
  private readonly sources = new Map<string, RowSource>()
  constructor(private readonly capacity = 8) {}

  get(key: string, build: () => RowSource): RowSource {
    let source = this.sources.get(key)
    if (source) {
      this.sources.delete(key)
    } else {
      source = build()
      if (this.sources.size >= this.capacity) this.sources.delete(this.sources.keys().next().value as string)
    }
    this.sources.set(key, source)
    return source
  }

  clear(): void {
    this.sources.clear()
  }
}
