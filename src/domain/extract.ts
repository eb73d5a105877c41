/**
 * What a test (or a person) looks for in a captured message: its readable text, its links and
 * its one-time codes. Computed once per message (see channels/), never again at read time.
 *
 * The HTML tools (html-to-text and htmlparser2, a real parser: never regexes over HTML) are
 * loaded on first use, not at `import('sendbox')`: {@link loadHtmlTools} is awaited by the
 * sandbox's `ready`, which every request awaits before it is handled. The rule for codes is
 * documented with examples in docs/links-and-codes.md; the unit tests beside this file hold it.
 */

type Convert = (html: string) => string
interface ParserCallbacks {
  onopentag?: (name: string, attribs: Record<string, string>) => void
  ontext?: (text: string) => void
  onclosetag?: (name: string) => void
}
type ParserClass = new (callbacks: ParserCallbacks, options?: object) => { write(chunk: string): void; end(): void }

let tools: { convert: Convert; Parser: ParserClass } | undefined
let loading: Promise<void> | undefined

/** Loads the HTML tools once (a dynamic import, so `import('sendbox')` stays light). */
export function loadHtmlTools(): Promise<void> {
  loading ??= Promise.all([import('html-to-text'), import('htmlparser2')]).then(([h2t, hp2]) => {
    // Compiled once: `convert(html, options)` compiles the options (its selector decision tree)
    // on every call, which was a quarter of an email send's CPU in the standalone server. And
    // compiled on the first conversion, not here: emails are derived on first read, so a server
    // that never shows one never pays for it, and its start does not.
    let compiled: Convert | undefined
    const convert: Convert = (html) => (compiled ??= h2t.compile(TEXT_OPTIONS as Parameters<typeof h2t.compile>[0]) as Convert)(html)
    tools = { convert, Parser: hp2.Parser as unknown as ParserClass }
  })
  return loading
}

/**
 * How much of a text is read for codes, in UTF-16 units: a one-time code stands near the top of
 * a message, and reading further only lets a hostile 1 MiB body cost the event loop more.
 */
export const MAX_TEXT_LENGTH = 100_000

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }))

const TEXT_OPTIONS = {
  wordwrap: false,
  // An email of 1 MiB is legal; html-to-text's own limits keep a hostile tree bounded.
  limits: { maxInputLength: 2_000_000, maxDepth: 256, maxChildNodes: 50_000, ellipsis: '…' },
  selectors: [
    ...HEADINGS,
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    // A link's URL in the text as `links` holds it (serialised: no line break or control inside).
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true, pathRewrite: (href: string) => serializedHttpUrl(href) ?? href } },
    { selector: 'img', format: 'imageLabel' },
  ],
  formatters: {
    // Email images are often inline `data:` URIs of many kilobytes: say what the image is, not its bytes.
    imageLabel: (elem: { attribs?: Record<string, string> }, _walk: unknown, builder: { addInline(text: string, options?: object): void }) => {
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
  return tidy(text.replace(/\r\n?/g, '\n'))
}

/** The tags cut out, bounded (an unbounded `<[^>]*>` rescans a long run without `>`): the fallback before the tools load. */
function stripTags(html: string): string {
  return html.replace(/<[^<>]{0,4096}>/g, ' ')
}

const BLOCK_TAGS = new Set(['p', 'div', 'br', 'li', 'tr', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'blockquote', 'pre', 'hr', 'ul', 'ol'])

/**
 * The text of an HTML document in one SAX pass, linear in its size: text nodes (entities
 * decoded), a line break at each block element, a link's URL after its text, `<style>` and
 * `<script>` skipped. Used for bodies too large for html-to-text's layout.
 */
export function plainTextOf(html: string, links?: LinkList): string {
  if (!tools) return stripTags(html)
  const parts: string[] = []
  let skip = 0
  const hrefs: string[] = []
  let run = ''
  const flush = () => {
    if (run !== '') links?.addFromText(run)
    run = ''
  }
  const parser = new tools.Parser(
    {
      onopentag(name, attribs) {
        flush()
        if (name === 'style' || name === 'script') skip++
        else if (BLOCK_TAGS.has(name)) parts.push('\n')
        if (name === 'a') hrefs.push(attribs.href ? serializedHttpUrl(attribs.href) ?? '' : '')
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
  parser.write(html)
  parser.end()
  flush()
  return parts.join('').replace(/\n{3,}/g, '\n\n')
}

/**
 * An email's text and links. Up to {@link FULL_RENDER_LIMIT}, html-to-text's layout and a link
 * pass; past it, one SAX pass gives both, so a hostile body costs the event loop one read.
 */
export function renderEmail(html: string): { text: string; links: string[]; images: string[] } {
  if (tools && html.length > FULL_RENDER_LIMIT) {
    const list = new LinkList()
    const text = tidy(plainTextOf(html, list).replace(/\r\n?/g, '\n'))
    return { text, links: list.links, images: list.images }
  }
  const { links, images } = linksAndImagesInHtml(html)
  return { text: htmlToText(html), links, images }
}

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
 * An absolute http(s) URL with a host, as its WHATWG serialisation (`URL.href`): tabs and
 * newlines removed, other controls, spaces and non-ASCII percent-encoded, the host in punycode —
 * so a stored link never carries a raw control or whitespace into a terminal, a clipboard or a
 * shell (issue 27, N3/N8). Undefined for anything else.
 */
export function serializedHttpUrl(value: string): string | undefined {
  if (!/^[\u0000-\u0020]*https?:/i.test(value)) return undefined
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '' ? url.href : undefined
  } catch {
    return undefined
  }
}

class LinkList {
  readonly links: string[] = []
  readonly images: string[] = []
  private readonly seen = new Set<string>()
  private readonly seenImages = new Set<string>()
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
  addFromText(text: string): void {
    if (!text.includes('://')) return
    for (const match of text.matchAll(URL_IN_TEXT)) this.add(trimUrl(match[0]))
  }
}

/** Absolute http(s) URLs in plain text (an SMS, template parameters), in order, de-duplicated. */
export function linksInText(...texts: string[]): string[] {
  const list = new LinkList()
  for (const text of texts) list.addFromText(text)
  return list.links
}

/**
 * An email's links and images, each in order of appearance, de-duplicated: `links` are what a
 * person can click (`href` of `<a>` and `<area>`, URLs written in the text), `images` the `src`
 * of `<img>`. Entities are decoded by the parser (`&amp;` → `&`).
 */
export function linksAndImagesInHtml(html: string): { links: string[]; images: string[] } {
  const list = new LinkList()
  if (!tools) {
    // Before the tools load: hrefs and srcs by a bounded scan, then text URLs.
    for (const match of html.matchAll(/\b(href|src)\s*=\s*["']([^"']{1,8192})["']/gi)) {
      if (match[1].toLowerCase() === 'href') list.add(decodeBasicEntities(match[2]))
      else list.addImage(decodeBasicEntities(match[2]))
    }
    list.addFromText(stripTags(html))
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

function decodeBasicEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" })[name] ?? '')
}

// ---------------------------------------------------------------------------------------------
// One-time codes
// ---------------------------------------------------------------------------------------------

/**
 * Words that announce a one-time code, in several languages. Latin-script words match at the
 * start of a word (so `código`, `Bestätigungscode`'s `code` suffix is covered separately);
 * CJK words match anywhere.
 */
const KEYWORDS = [
  'code', 'codes', 'otp', 'pin', 'passcode', 'password', 'passwort', 'kennwort', 'verification', 'verify', 'token', '2fa', 'mfa',
  'one-time', 'one time', 'security', 'authentication', 'login', 'sign-in', 'tan',
  'código', 'codigo', 'clave', 'senha', 'contraseña', 'codice', 'kod', 'kodu', 'kode', 'koden', 'şifre', 'mot de passe',
  'код', 'пароль',
]
const CJK_KEYWORDS = ['验证码', '驗證碼', '認証コード', '確認コード', 'コード', '인증번호', '인증 코드', '인증코드', 'رمز']
const KEYWORD = new RegExp(
  // The compound suffix (`Bestätigungscode`, `verificatiecode`) is matched on its own, never as
  // `\\p{L}+code`: that form backtracks over every long run of letters (quadratic).
  `(?<![\\p{L}\\p{N}])(?:${KEYWORDS.map(escapeRegExp).join('|')})(?![\\p{L}])|(?:code|kode|kod|codice)(?![\\p{L}])|${CJK_KEYWORDS.map(escapeRegExp).join('|')}`,
  'giu',
)
/** A keyword right after one of these words names something that is not a one-time code. */
const NOT_A_CODE_BEFORE = /(?:promo|promotion|promotional|discount|coupon|voucher|gift|referral|zip|postal|post|country|area|tracking|source|qr|bar|dress|error|status|reason|tax|product|booking|confirmation number|order)\s*$/i

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Candidates: a run of 4–8 digits, or 4–10 uppercase letters and digits with at least one of
 * each, standing alone — not glued to letters, digits, `.`/`,` decimals, `:` times, `/`, `-`
 * dates or phone groups, `+`/`#`/currency prefixes, or a `%`.
 */
const CANDIDATE = /(?<![\p{L}\p{N}_+#$€£¥₹.,:/\\@&=%-])(?:[0-9]{4,8}|[A-Z0-9]{4,10})(?![\p{L}\p{N}_%€$£¥₹]|[.,:/-]\p{N})/gu
const CURRENCY_AFTER = /^\s?(?:usd|eur|gbp|jpy|inr|dollars?|euros?|pounds?|€|\$|£|¥|₹|kr|sek|nok|dkk|chf)\b/i
/** Digits joined to this candidate by one space, dot, dash or parenthesis make a longer number (a phone, a card). */
const GROUPED_BEFORE = /[0-9][ .)-]$|[0-9]\s?\($/
const GROUPED_AFTER = /^[ .(-]?[0-9]/

const NEAR_BEFORE = 60
const NEAR_AFTER = 40

function isYear(token: string): boolean {
  return token.length === 4 && /^(?:19|20)[0-9]{2}$/.test(token)
}

function hasDigitAndLetter(token: string): boolean {
  return /[0-9]/.test(token) && /[A-Z]/.test(token)
}

/** Keyword spans of a text (start, end), the ones that announce something else dropped. */
function keywordSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  for (const match of text.matchAll(KEYWORD)) {
    const start = match.index
    if (NOT_A_CODE_BEFORE.test(text.slice(Math.max(0, start - 30), start))) continue
    spans.push([start, start + match[0].length])
  }
  return spans
}

/** True when no line break stands between `from` and `to` (a code and its keyword share a line). */
function sameLine(text: string, from: number, to: number): boolean {
  // The window is at most NEAR_BEFORE characters: scanning it keeps the whole pass linear.
  return !text.slice(from, to).includes('\n')
}

const ADDRESS_STOP = new Set([' ', '\t', '\n', '\r', '\f', '\v', '@', '<', '>', '(', ')', '"', "'", ','])

/**
 * URLs and email addresses blanked out (same length), so their digits are never read as codes.
 * Email addresses are found from each `@` outwards (a pattern like `[^@]+@` would rescan a long
 * run of text at every position: quadratic).
 */
function blankAddresses(text: string): string {
  let out = text.replace(/\bhttps?:\/\/[^\s<>"'`]+|\bwww\.[^\s<>"'`]+/gi, (m) => ' '.repeat(m.length))
  if (!out.includes('@')) return out
  const spans: Array<[number, number]> = []
  for (let at = out.indexOf('@'); at !== -1; at = out.indexOf('@', at + 1)) {
    let start = at
    while (start > 0 && at - start < 64 && !ADDRESS_STOP.has(out[start - 1])) start--
    let end = at + 1
    while (end < out.length && end - at < 254 && !ADDRESS_STOP.has(out[end])) end++
    if (start < at && out.slice(at + 1, end).includes('.')) spans.push([start, end])
  }
  if (spans.length === 0) return out
  let result = ''
  let last = 0
  for (const [start, end] of spans) {
    if (start < last) continue
    result += out.slice(last, start) + ' '.repeat(end - start)
    last = end
  }
  out = result + out.slice(last)
  return out
}

/**
 * True when the candidate stands alone on a line that follows the keyword's line (blank lines
 * between allowed): the common email layout "Your verification code:" then the code in a box.
 */
function standsOnNextLine(text: string, keywordEnd: number, candidate: Candidate): boolean {
  const gap = text.slice(keywordEnd, candidate.start)
  if (!/^[^\n]*\n\s*$/.test(gap) || gap.split('\n').length > 4) return false
  const lineEnd = text.indexOf('\n', candidate.end)
  return text.slice(candidate.end, lineEnd === -1 ? Math.min(text.length, candidate.end + 200) : Math.min(lineEnd, candidate.end + 200)).trim() === ''
}

interface Candidate {
  token: string
  start: number
  end: number
}

/** Index of the first candidate starting at or after `at` (candidates are in text order). */
function firstFrom(candidates: readonly Candidate[], at: number): number {
  let low = 0
  let high = candidates.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (candidates[mid].start < at) low = mid + 1
    else high = mid
  }
  return low
}

/** Words before a lone number that say what else it is (a room, an order, a zip code). */
const ONLY_NUMBER_BLOCKERS = /(?:room|floor|flight|gate|seat|order|invoice|ticket|ref|reference|account|case|item|page|step|no\.?|number|zip|postal|code|suite|unit|apt|box|km|miles?|items?)\s*#?\s*$/i

/**
 * One-time codes in a message's text, as a person would read them: 4–8 digits, or 4–10
 * uppercase letters and digits with at least one digit, announced by a word such as code, OTP,
 * PIN, passcode, verification or token (several languages) on the same line. Each such word
 * claims one code: the nearest candidate after it (within 60 characters), else the nearest
 * before it (within 40). In a short SMS (`onlyNumberCounts`), a 4–8 digit run that is the only
 * number of the text counts too. Years (1900–2099) count only right after the word ("PIN:
 * 2024"); prices, phone numbers, dates, times, decimals, and anything inside a URL or an email
 * address never. De-duplicated, in order of appearance. docs/links-and-codes.md has the table of
 * examples. Linear in the text's length (no backtracking patterns, one pass per keyword).
 */
export function findCodes(rawText: string, options: { onlyNumberCounts?: boolean } = {}): string[] {
  const text = blankAddresses(rawText.length > MAX_TEXT_LENGTH ? rawText.slice(0, MAX_TEXT_LENGTH) : rawText)
  const candidates: Candidate[] = []
  for (const match of text.matchAll(CANDIDATE)) {
    const token = match[0]
    const start = match.index
    const end = start + token.length
    const digitsOnly = /^[0-9]+$/.test(token)
    if (!digitsOnly && !hasDigitAndLetter(token)) continue
    if (digitsOnly && token.length > 8) continue
    if (GROUPED_BEFORE.test(text.slice(Math.max(0, start - 2), start)) || GROUPED_AFTER.test(text.slice(end, end + 2))) continue
    if (CURRENCY_AFTER.test(text.slice(end, end + 8))) continue
    candidates.push({ token, start, end })
  }
  const claimed = new Set<number>()
  if (candidates.length > 0) {
    for (const [kStart, kEnd] of keywordSpans(text)) {
      const after = firstFrom(candidates, kEnd)
      const next = candidates[after]
      if (next && next.start - kEnd <= NEAR_BEFORE && (sameLine(text, kEnd, next.start) || standsOnNextLine(text, kEnd, next))) {
        // A year counts only right after the word: "PIN: 2024", "code is 2024", "código 2024".
        const direct = /^[\s:#.-]*(?:is|es|est|ist|é|lautet)?[\s:#-]*$/i.test(text.slice(kEnd, next.start))
        if (!isYear(next.token) || direct) claimed.add(after)
        continue
      }
      const before = candidates[firstFrom(candidates, kStart) - 1]
      if (before && before.end <= kStart && kStart - before.end <= NEAR_AFTER && sameLine(text, before.end, kStart) && !isYear(before.token)) {
        claimed.add(firstFrom(candidates, kStart) - 1)
      }
    }
  }
  const codes = new Set<string>()
  for (const index of [...claimed].sort((a, b) => a - b)) codes.add(candidates[index].token)
  if (codes.size === 0 && options.onlyNumberCounts) {
    const numbers = text.match(/[0-9]+(?:[.,][0-9]+)*/g) ?? []
    const only = candidates.length === 1 ? candidates[0] : undefined
    if (numbers.length === 1 && only && /^[0-9]+$/.test(only.token) && only.token === numbers[0] && !isYear(only.token)
      && !ONLY_NUMBER_BLOCKERS.test(text.slice(Math.max(0, only.start - 24), only.start))) {
      codes.add(only.token)
    }
  }
  return [...codes]
}

/** What counts as a short SMS for the only-number rule: one GSM-7 segment. */
export const SHORT_SMS_LENGTH = 160
