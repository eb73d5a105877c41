/** Links and images of a captured message: from HTML attributes and from text, deduplicated and bounded. */
import { withoutEscapes } from './safe-text.js'

/** At most this many links (and as many images) are kept per message (a hostile email may hold 100,000). */
export const MAX_LINKS = 10_000

// A URL in text runs until whitespace, a quote, an angle bracket or a control character (ESC,
// BEL, C1: never part of a link, and the start of a terminal escape sequence).
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`\u0000-\u001f\u007f-\u009f]+/gi
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*', '_'])
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' }

/** Cuts sentence punctuation (and unbalanced closing brackets) off the end of a URL found in text. */
function trimUrl(url: string): string {
  let end = url.length
  for (;;) {
    const last = url[end - 1]
    if (TRAILING_PUNCTUATION.has(last)) {
      end--
      continue
    }
    const opener = CLOSERS[last]
    if (opener !== undefined) {
      const body = url.slice(0, end)
      const opened = body.split(opener).length - 1
      const closed = body.split(last).length - 1
      if (closed > opened) {
        end--
        continue
      }
    }
    return url.slice(0, end)
  }
}

/**
 * An absolute http(s) URL with a host, as its WHATWG serialisation (`URL.href`) once escape
 * sequences and controls are removed ({@link withoutEscapes}): tabs and newlines removed, spaces
 * and non-ASCII percent-encoded, the host in punycode —
 * so a stored link never carries a raw control or whitespace into a terminal, a clipboard or a
 * shell (issue 27, N3/N8). Undefined for anything else.
 */
export function serializedHttpUrl(given: string): string | undefined {
  // Escape sequences go first, whole (issue 36, R18): an OSC 8 target inside an href is no part of it.
  const value = withoutEscapes(given)
  if (!/^[\u0000-\u0020]*https?:/i.test(value)) return undefined
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '' ? url.href : undefined
  } catch {
    return undefined
  }
}

export class LinkList {
  readonly links: string[] = []
  readonly images: string[] = []
  private readonly seen = new Set<string>()
  private readonly seenImages = new Set<string>()
  /** A link given whole (an `href`), as {@link serializedHttpUrl} gives it. */
  add(raw: string): void {
    const url = serializedHttpUrl(raw)
    if (url === undefined || this.links.length >= MAX_LINKS || this.seen.has(url)) return
    this.seen.add(url)
    this.links.push(url)
  }
  addImage(raw: string): void {
    const url = serializedHttpUrl(raw)
    if (url === undefined || this.images.length >= MAX_LINKS || this.seenImages.has(url)) return
    this.seenImages.add(url)
    this.images.push(url)
  }
  /** The URLs written in `text`, found once its escape sequences are removed (issue 36, R18). */
  addFromText(given: string): void {
    if (!given.includes('://')) return
    const text = withoutEscapes(given)
    for (const match of text.matchAll(URL_IN_TEXT)) this.add(trimUrl(match[0]))
  }
}

/** Absolute http(s) URLs in plain text (an SMS, template parameters), in order, de-duplicated. */
export function linksInText(...texts: string[]): string[] {
  const list = new LinkList()
  for (const text of texts) list.addFromText(text)
  return list.links
}
