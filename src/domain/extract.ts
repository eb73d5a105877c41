/**
 * What a test (or a person) looks for in a captured message: its readable text, its links and
 * its one-time codes. Computed once per message (see channels/), never again at read time.
 *
 * The HTML tools (html-to-text and htmlparser2, a real parser: never regexes over HTML) are
 * loaded on first use, not at `import('sendbox')`: the email send route awaits
 * {@link htmlToolsPending} before its first capture, and a sandbox restoring a store awaits
 * {@link loadHtmlTools} in its `ready` (restored emails are derived on first read). The rule for codes is
 * documented with examples in docs/links-and-codes.md; the unit tests beside this file hold it.
 */
import { finish, inTurns, writeInChunks, type Depth } from './bounded-parse.js'
import { MAX_TEXT_LENGTH } from './extract-codes.js'
import { LinkList, serializedHttpUrl } from './extract-links.js'

export * from './extract-links.js'
export * from './extract-codes.js'

type Convert = (html: string) => string
interface ParserCallbacks {
  onopentag?: (name: string, attribs: Record<string, string>) => void
  ontext?: (text: string) => void
  onclosetag?: (name: string) => void
}
type ParserClass = new (callbacks: ParserCallbacks, options?: object) => { write(chunk: string): void; end(): void }

let tools: { convert: Convert; Parser: ParserClass } | undefined
let loading: Promise<void> | undefined

/**
 * Undefined once the HTML tools are loaded, else the promise of their loading (started now): what
 * an email's capture awaits first (the email channel's `prepare`), so a sandbox that never
 * captures an email never loads them.
 */
export function htmlToolsPending(): Promise<void> | undefined {
  return tools ? undefined : loadHtmlTools()
}

/** Loads the HTML tools once (a dynamic import, so `import('sendbox')` stays light). */
export function loadHtmlTools(): Promise<void> {
  loading ??= Promise.all([import('html-to-text'), import('htmlparser2')]).then(([h2t, hp2]) => {
    // Compiled once: `convert(html, options)` compiles the options (its selector decision tree)
    // on every call, which was a quarter of an email send's CPU in the standalone server. And
    // compiled on the first conversion, not here: emails are derived on first read, so a server
    // that never shows one never pays for it, and its start does not.
    let compiled: Convert | undefined
    const convert: Convert = (html) =>
      (compiled ??= h2t.compile(TEXT_OPTIONS as Parameters<typeof h2t.compile>[0]) as Convert)(html)
    tools = { convert, Parser: hp2.Parser as unknown as ParserClass }
  })
  return loading
}

/**
 * Loads the HTML tools and compiles the renderer now, while nothing waits (the standalone server,
 * once listening): its first email then does not hold the event loop ~20 ms for them.
 */
export function warmHtmlTools(): Promise<void> {
  return loadHtmlTools().then(() => {
    tools!.convert('<p>sendbox</p>')
    plainTextOf('<p>sendbox</p>')
  })
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }))

const TEXT_OPTIONS = {
  wordwrap: false,
  // An email of 1 MiB is legal; html-to-text's own limits keep a hostile tree bounded.
  limits: { maxInputLength: 2_000_000, maxDepth: 256, maxChildNodes: 50_000, ellipsis: '…' },
  selectors: [
    ...HEADINGS,
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    // A link's URL in the text as `links` holds it (serialised: no line break or control inside).
    {
      selector: 'a',
      options: {
        hideLinkHrefIfSameAsText: true,
        noAnchorUrl: true,
        pathRewrite: (href: string) => serializedHttpUrl(href) ?? href,
      },
    },
    { selector: 'img', format: 'imageLabel' },
  ],
  formatters: {
    // Email images are often inline `data:` URIs of many kilobytes: say what the image is, not its bytes.
    imageLabel: (
      elem: { attribs?: Record<string, string> },
      _walk: unknown,
      builder: { addInline(text: string, options?: object): void },
    ) => {
      const attribs = elem.attribs ?? {}
      const src = attribs.src ?? ''
      const label = attribs.alt?.trim() || (src.startsWith('data:') || src === '' ? '' : src)
      builder.addInline(label ? `[image: ${label}]` : '[image]', { noWordTransform: true })
    },
  },
}

/** Trailing whitespace of each line and blank lines at both ends removed, without a backtracking regex. */
function tidy(text: string): string {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) lines[i] = trimEnd(lines[i])
  let start = 0
  let end = lines.length
  while (start < end && lines[start] === '') start++
  while (end > start && lines[end - 1] === '') end--
  return lines.slice(start, end).join('\n')
}

function trimEnd(line: string): string {
  let end = line.length
  while (end > 0 && /\s/.test(line[end - 1])) end--
  return end === line.length ? line : line.slice(0, end)
}

/**
 * HTML larger than this is rendered by {@link plainTextOf} (one SAX pass) instead of
 * html-to-text, whose layout work on a hostile 1 MiB body (1 MiB of no-break spaces) costs
 * ~0.35 s of event loop at capture. Most real emails are below it; larger ones lose only table layout in `text`.
 */
export const FULL_RENDER_LIMIT = 64 * 1024

/**
 * An email's HTML as readable plain text: headings as written (not upper-cased), paragraphs,
 * lists, tables, links as `text [url]`, images as `[image: alt]`. Not wrapped (views wrap it to
 * their width). Past {@link FULL_RENDER_LIMIT}, the plain SAX rendering; before the tools are
 * loaded, the tags stripped.
 */
export function htmlToText(html: string): string {
  let text: string
  if (!tools) {
    text = stripTags(html)
  } else if (html.length > FULL_RENDER_LIMIT) {
    text = plainTextOf(html)
  } else {
    try {
      text = tools.convert(html)
    } catch {
      text = plainTextOf(html)
    }
  }
  // Bounded by the body cap: at most the HTML's own text plus each link's URL once.
  return tidyText(text)
}

/** The tags cut out, bounded (an unbounded `<[^>]*>` rescans a long run without `>`): the fallback before the tools load. */
function stripTags(html: string): string {
  return html.replace(/<[^<>]{0,4096}>/g, ' ')
}

const BLOCK_TAGS = new Set([
  'p',
  'div',
  'br',
  'li',
  'tr',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'header',
  'footer',
  'blockquote',
  'pre',
  'hr',
  'ul',
  'ol',
])

/**
 * The text of an HTML document in one SAX pass, linear in its size: text nodes (entities
 * decoded), a line break at each block element, a link's URL after its text, `<style>` and
 * `<script>` skipped. Used for bodies too large for html-to-text's layout. Past
 * `MAX_PARSE_DEPTH` open elements the rest is read as the tools' fallback reads it (tags
 * stripped, links by pattern): a hostile nesting costs the event loop a linear read, not one
 * quadratic in its depth (src/domain/bounded-parse.ts).
 */
export function plainTextOf(html: string, links?: LinkList): string {
  return finish(plainSteps(html, links)).text
}

/**
 * {@link plainTextOf} as steps (one a chunk parsed), saying whether the parser read all of the
 * HTML (`whole`) or stopped at the depth limit.
 */
function* plainSteps(html: string, links?: LinkList): Generator<void, { text: string; whole: boolean }> {
  if (!tools) return { text: stripTags(html), whole: false }
  const parts: string[] = []
  let skip = 0
  const hrefs: string[] = []
  let run = ''
  const counter: Depth = { depth: 0 }
  const flush = () => {
    if (run !== '') links?.addFromText(run)
    run = ''
  }
  const parser = new tools.Parser(
    {
      onopentag(name, attribs) {
        counter.depth++
        flush()
        if (name === 'style' || name === 'script') skip++
        else if (BLOCK_TAGS.has(name)) parts.push('\n')
        if (name === 'a') hrefs.push(attribs.href ? (serializedHttpUrl(attribs.href) ?? '') : '')
        if (links) {
          if ((name === 'a' || name === 'area') && attribs.href) links.add(attribs.href)
          else if (name === 'img' && attribs.src) links.addImage(attribs.src)
        }
      },
      ontext(piece) {
        if (skip > 0) return
        parts.push(piece)
        if (links) run += piece
      },
      onclosetag(name) {
        counter.depth--
        flush()
        if ((name === 'style' || name === 'script') && skip > 0) skip--
        else if (name === 'a') {
          const href = hrefs.pop()
          if (href) parts.push(` [${href}]`)
        } else if (BLOCK_TAGS.has(name)) parts.push('\n')
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  const parsed = yield* writeInChunks(parser, html, counter)
  flush()
  const whole = parsed === html.length
  if (!whole) {
    const rest = html.slice(parsed)
    // Each stripped tag leaves a space: runs of them collapsed, so the codes' reading (the first
    // MAX_TEXT_LENGTH characters) reaches the text after a hostile run of tags.
    parts.push('\n', stripTags(rest).replace(/\s{2,}/g, ' '))
    if (links) roughLinks(rest, links)
  }
  return { text: parts.join('').replace(/\n{3,}/g, '\n\n'), whole }
}

/**
 * An email's text and links. Up to {@link FULL_RENDER_LIMIT}, html-to-text's layout and a link
 * pass; past it, one SAX pass gives both, so a hostile body costs the event loop one read.
 */
export function renderEmail(html: string): { text: string; links: string[]; images: string[] } {
  if (!tools) {
    const { links, images } = linksAndImagesInHtml(html)
    return { text: htmlToText(html), links, images }
  }
  const list = new LinkList()
  return rendered(html, finish(plainSteps(html, list)), list)
}

/**
 * {@link renderEmail}, letting the event loop turn every 64 KB parsed when the HTML is past
 * {@link FULL_RENDER_LIMIT} (a hostile 900 KB of `<p>` is ~250 ms of callbacks): what an email's
 * capture derives ahead of time.
 */
export async function renderEmailInTurns(html: string): Promise<{ text: string; links: string[]; images: string[] }> {
  if (!tools || html.length <= FULL_RENDER_LIMIT) return renderEmail(html)
  const list = new LinkList()
  return rendered(html, await inTurns(plainSteps(html, list)), list)
}

/** An email rendered from its SAX pass: that pass's text past the limits, else html-to-text's; the pass's links. */
function rendered(
  html: string,
  plain: { text: string; whole: boolean },
  list: LinkList,
): { text: string; links: string[]; images: string[] } {
  // html-to-text parses the whole document again, as deep as it goes: not past the depth limit.
  const text = html.length > FULL_RENDER_LIMIT || !plain.whole ? tidyText(plain.text) : htmlToText(html)
  return { text, links: list.links, images: list.images }
}

/** Line breaks made `\n`, then {@link tidy}. */
function tidyText(text: string): string {
  return tidy(text.replace(/\r\n?/g, '\n'))
}

/**
 * An email's links and images, each in order of appearance, de-duplicated: `links` are what a
 * person can click (`href` of `<a>` and `<area>`, URLs written in the text), `images` the `src`
 * of `<img>`. Entities are decoded by the parser (`&amp;` → `&`).
 */
export function linksAndImagesInHtml(html: string): { links: string[]; images: string[] } {
  const list = new LinkList()
  if (!tools) {
    roughLinks(html, list)
    return { links: list.links, images: list.images }
  }
  // The same SAX pass that renders large bodies collects hrefs, srcs and URLs in text runs.
  plainTextOf(html, list)
  return { links: list.links, images: list.images }
}

/** The clickable links of an email (see {@link linksAndImagesInHtml}). */
export function linksInHtml(html: string): string[] {
  return linksAndImagesInHtml(html).links
}

/** Links and images without a parser (before the tools load, or past the parse depth): hrefs and srcs by a bounded scan, then URLs in the text. */
function roughLinks(html: string, list: LinkList): void {
  for (const match of html.matchAll(/\b(href|src)\s*=\s*["']([^"']{1,8192})["']/gi)) {
    if (match[1].toLowerCase() === 'href') list.add(decodeBasicEntities(match[2]))
    else list.addImage(decodeBasicEntities(match[2]))
  }
  list.addFromText(stripTags(html))
}

function decodeBasicEntities(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39|apos);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" })[name] ?? '',
  )
}
