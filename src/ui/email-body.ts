import { convert, type HtmlToTextOptions } from 'html-to-text'
import { printable } from './format.js'

/** Rendered bodies kept, so scrolling a detail does not convert its HTML on every key press. */
const CACHE_SIZE = 32
const cache = new Map<string, readonly string[]>()

function options(width: number): HtmlToTextOptions {
  return {
    wordwrap: Math.max(20, width),
    selectors: [
      // Real layout tables are common in email; a data table keeps cells in columns.
      { selector: 'table', format: 'dataTable' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
      { selector: 'img', format: 'imageLabel' },
    ],
    formatters: {
      // Email images are often inline `data:` URIs of many kilobytes: show what the image is, not its bytes.
      imageLabel: (elem, _walk, builder) => {
        const attribs = (elem as { attribs?: Record<string, string> }).attribs ?? {}
        const src = attribs.src ?? ''
        const label = attribs.alt?.trim() || (src.startsWith('data:') || src === '' ? '' : src)
        builder.addInline(label ? `[image: ${label}]` : '[image]', { noWordTransform: true })
      },
    },
  }
}

/**
 * An email's HTML as readable terminal lines: headings, paragraphs, lists, links with their
 * URLs and tables, by html-to-text (a real HTML parser, never regexes). Wrapped to `width`;
 * control characters in the client's HTML are neutralised. Memoised per message and width,
 * bounded to the last {@link CACHE_SIZE} bodies.
 */
export function emailBodyLines(messageId: string, html: string, width: number): readonly string[] {
  const cacheKey = `${messageId}:${width}`
  const hit = cache.get(cacheKey)
  if (hit) {
    cache.delete(cacheKey)
    cache.set(cacheKey, hit)
    return hit
  }
  let text: string
  try {
    text = convert(html, options(width))
  } catch (error) {
    text = `(the HTML could not be rendered as text: ${(error as Error).message}; open it in a browser instead)`
  }
  const lines = text.split(/\r\n|\r|\n/).map((line) => printable(line).replace(/\s+$/, ''))
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  if (lines.length === 0) lines.push('(the HTML has no text)')
  cache.set(cacheKey, lines)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  return lines
}
