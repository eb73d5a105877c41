import type { Check } from '../../../contract/checks.js'
import { finding, type RuleId } from '../rules.js'
import { hostInText, httpHost, isPrivateHost, sameHost } from './addresses.js'
import { SourceLines } from './source-location.js'
import { MAX_PARSE_DEPTH, writeBounded, type Depth } from '../../bounded-parse.js'
import { utf8Length } from '../../utf8.js'

/**
 * The email checks that need no network and no browser (issue 35, item 2): link targets, link
 * text, images without `alt`, the size Gmail clips at, and the accessibility basics a static pass
 * can judge (`<html lang>`, layout tables, link text). One SAX pass of htmlparser2 (a real parser:
 * entities decoded, attributes as a browser reads them); each finding has its source line, column
 * and excerpt. docs/decisions/checks-what-runs-where.md says what runs where.
 */

/** Gmail clips a message whose HTML is over 102 KB (102 × 1024 bytes, UTF-8). */
export const GMAIL_CLIP_BYTES = 102 * 1024
/** Findings of one rule listed one by one, at most; then one finding says how many more there are. */
export const MAX_FINDINGS_PER_RULE = 100

type Location = NonNullable<Check['location']>
interface ParserCallbacks {
  onopentag(name: string, attribs: Record<string, string>): void
  ontext(text: string): void
  onclosetag(name: string): void
}
type Parser = { startIndex: number; endIndex: number; write(chunk: string): void; end(): void }
/** htmlparser2's Parser class (loaded by {@link staticEmailChecks}, passed in by the worker). */
export type ParserClass = new (callbacks: ParserCallbacks, options?: object) => Parser

/** Collects findings, at most {@link MAX_FINDINGS_PER_RULE} per rule. */
class Findings {
  readonly list: Check[] = []
  private readonly counts = new Map<RuleId, number>()

  add(id: RuleId, message: string, where: Omit<Check, 'id' | 'severity' | 'category' | 'message'> = {}): void {
    const count = (this.counts.get(id) ?? 0) + 1
    this.counts.set(id, count)
    if (count <= MAX_FINDINGS_PER_RULE) this.list.push(finding(id, message, where))
  }

  done(): Check[] {
    for (const [id, count] of this.counts) {
      if (count > MAX_FINDINGS_PER_RULE)
        this.list.push(
          finding(id, `${count - MAX_FINDINGS_PER_RULE} more findings of this rule are not listed (${count} in all).`),
        )
    }
    return this.list
  }
}

const SCRIPT_SCHEMES: Record<string, RuleId> = {
  'javascript:': 'links.javascript',
  'data:': 'links.data',
  'vbscript:': 'links.vbscript',
}
const VAGUE_LINK_TEXT = new Set([
  'click here',
  'here',
  'click',
  'read more',
  'more',
  'learn more',
  'link',
  'this link',
  'click this link',
  'details',
  'more info',
  'go',
  'this',
])

/** What a browser would read as the target's scheme: controls and whitespace anywhere before it do not count. */
function schemeOf(href: string): string | undefined {
  const match = /^([a-z][a-z0-9+.-]*:)/i.exec(href.replace(/[\u0000-\u0020]/g, ''))
  return match?.[1].toLowerCase()
}

/** The checks of one link or image target (`kind` says which, in the messages). */
function targetChecks(
  findings: Findings,
  target: string | undefined,
  location: Location,
  kind: 'link' | 'image',
): void {
  const trimmed = (target ?? '').trim()
  if (kind === 'link' && (trimmed === '' || trimmed === '#')) {
    return findings.add(
      'links.empty',
      `A link has ${target === undefined ? 'no' : `an ${trimmed === '' ? 'empty' : '"#"'}`} target: it goes nowhere when clicked. Give it the URL it should open.`,
      { location, link: trimmed },
    )
  }
  const scheme = schemeOf(trimmed)
  const script = scheme === undefined ? undefined : SCRIPT_SCHEMES[scheme]
  if (script !== undefined && !(kind === 'image' && scheme === 'data:')) {
    const shown = trimmed.length > 80 ? `${trimmed.slice(0, 80)}…` : trimmed
    return findings.add(
      script,
      `The ${kind} target ${JSON.stringify(shown)} is a ${scheme} URL: mail clients strip or block it, and filters treat it as an attack. Link to an https page instead.`,
      { location, link: shown },
    )
  }
  if (scheme === undefined) {
    if (kind === 'link' && !trimmed.startsWith('#'))
      findings.add(
        'links.relative',
        `The link "${trimmed.slice(0, 80)}" is relative: an email has no page address to resolve it against, so it opens nothing. Write the whole https URL.`,
        { location, link: trimmed.slice(0, 200) },
      )
    return
  }
  if (scheme !== 'http:' && scheme !== 'https:') return
  const host = httpHost(trimmed)
  if (scheme === 'http:')
    findings.add(
      'links.http',
      `The ${kind} ${trimmed.slice(0, 200)} is plain http: clients warn, block or rewrite it, and it can be read or changed on the way. Use https.`,
      { location, link: trimmed.slice(0, 2048) },
    )
  if (host !== undefined && isPrivateHost(host))
    findings.add(
      'links.private-address',
      `The ${kind} ${trimmed.slice(0, 200)} points at ${host}, a local or private address: fine while developing, unreachable for a real recipient. Use the public URL in production mail.`,
      { location, link: trimmed.slice(0, 2048) },
    )
}

/** An open `<a>`: its target and the text read so far. */
interface OpenLink {
  href: string | undefined
  location: Location
  text: string
  labelled: boolean
}

function linkTextChecks(findings: Findings, link: OpenLink): void {
  const text = link.text.replace(/\s+/g, ' ').trim()
  const textHost = hostInText(text)
  const targetHost = link.href === undefined ? undefined : httpHost(link.href.trim())
  if (textHost !== undefined && targetHost !== undefined && !sameHost(textHost, targetHost)) {
    findings.add(
      'links.text-mismatch',
      `The link text "${text.slice(0, 80)}" names ${textHost}, but the link opens ${targetHost}: readers and phishing filters distrust that. Show the real destination, or text that is not an address.`,
      { location: link.location, link: link.href!.trim().slice(0, 2048) },
    )
  }
  const vague = text.toLowerCase().replace(/[.!?:…>»→\s]+$/u, '')
  if (!link.labelled && VAGUE_LINK_TEXT.has(vague)) {
    findings.add(
      'accessibility.link-text',
      `The link text "${text}" says nothing out of context (screen readers list links by their text). Say where it goes: "Reset your password", "View your order".`,
      { location: link.location },
    )
  }
}

/** An open `<table>`: whether it says it is for layout, and whether it has header cells (a data table). */
interface OpenTable {
  location: Location
  presentational: boolean
  header: boolean
}

function imageChecks(findings: Findings, attribs: Record<string, string>, location: Location): void {
  const decorative = attribs.role === 'presentation' || attribs.role === 'none' || attribs['aria-hidden'] === 'true'
  if (attribs.alt === undefined && !decorative) {
    findings.add(
      'images.missing-alt',
      `An image (${(attribs.src ?? '').slice(0, 80) || 'no src'}) has no alt text: screen readers read its file name, and clients that block images show nothing in its place. Add alt="what it shows", or alt="" when it is decoration.`,
      { location, ...(attribs.src ? { link: attribs.src.slice(0, 2048) } : {}) },
    )
  }
  if (attribs.src !== undefined) targetChecks(findings, attribs.src, location, 'image')
}

/** The checks of one email's HTML, with htmlparser2's Parser already loaded. */
export function scanEmailHtml(html: string, Parser: ParserClass): Check[] {
  const findings = new Findings()
  const lines = new SourceLines(html)
  sizeCheck(findings, html)
  let sawHtml = false
  let link: OpenLink | undefined
  const tables: OpenTable[] = []
  let parser: Parser
  const here = () => lines.locate(parser.startIndex, parser.endIndex)
  const counter: Depth = { depth: 0 }
  parser = new Parser(
    {
      onopentag(name, attribs) {
        counter.depth++
        if (name === 'html') {
          sawHtml = true
          if (!attribs.lang?.trim()) htmlLangCheck(findings, here())
        } else if (name === 'a') {
          if (link !== undefined) linkTextChecks(findings, link)
          link = attribs.href === undefined ? undefined : openLink(attribs.href, attribs, here())
          if (link) targetChecks(findings, attribs.href, link.location, 'link')
        } else if (name === 'area' && attribs.href !== undefined) targetChecks(findings, attribs.href, here(), 'link')
        else if (name === 'img') imageChecks(findings, attribs, here())
        else if (name === 'table')
          tables.push({
            location: here(),
            presentational: attribs.role === 'presentation' || attribs.role === 'none',
            header: false,
          })
        else if ((name === 'th' || name === 'caption') && tables.length > 0) tables[tables.length - 1].header = true
      },
      ontext(text) {
        if (link !== undefined && link.text.length < 300) link.text += text
      },
      onclosetag(name) {
        counter.depth--
        if (name === 'a' && link !== undefined) {
          linkTextChecks(findings, link)
          link = undefined
        } else if (name === 'table') {
          const table = tables.pop()
          if (table && !table.presentational && !table.header) layoutTableCheck(findings, table)
        }
      },
    },
    { decodeEntities: true },
  )
  const parsed = writeBounded(parser, html, counter)
  if (parsed < html.length) depthCheck(findings, html.length - parsed, lines.locate(parsed, parsed))
  if (!sawHtml)
    findings.add(
      'accessibility.document-lang',
      'The HTML has no <html lang> (a fragment): the client\'s own page decides the language screen readers use. Wrap the email in <html lang="en"> (or its language).',
    )
  return findings.done()
}

/** An `<a href>` being read: its text is collected until it closes. */
function openLink(href: string, attribs: Record<string, string>, location: OpenLink['location']): OpenLink {
  return { href, location, text: '', labelled: Boolean(attribs['aria-label']?.trim() || attribs.title?.trim()) }
}

/** Elements nested past the parse depth: the rest of the HTML is not judged (src/domain/bounded-parse.ts). */
function depthCheck(findings: Findings, unread: number, location: ReturnType<SourceLines['locate']>): void {
  findings.add(
    'size.nesting-depth',
    `Elements are nested more than ${MAX_PARSE_DEPTH.toLocaleString('en-US')} deep: the last ${unread.toLocaleString('en-US')} characters were not checked. Close the elements you open (a missing </table>, </div> or </td> repeated deepens every element after it).`,
    { location },
  )
}

/** Gmail clips an HTML part over 102 KB. */
function sizeCheck(findings: Findings, html: string): void {
  const bytes = utf8Length(html)
  if (bytes > GMAIL_CLIP_BYTES) {
    findings.add(
      'size.gmail-clip',
      `The HTML is ${bytes.toLocaleString('en-US')} bytes (${(bytes / 1024).toFixed(1)} KB): Gmail clips messages over 102 KB behind a "View entire message" link, hiding the rest (and any open-tracking pixel). Trim inline styles, comments and repeated markup.`,
    )
  }
}

function htmlLangCheck(findings: Findings, location: ReturnType<SourceLines['locate']>): void {
  findings.add(
    'accessibility.html-lang',
    'The <html> element has no lang attribute: screen readers guess the language and mispronounce the text. Add lang="en" (or the email\'s language).',
    { location },
  )
}

function layoutTableCheck(findings: Findings, table: OpenTable): void {
  findings.add(
    'accessibility.layout-table',
    'A table without header cells has no role="presentation": screen readers announce it as a data table ("table, 3 rows, 2 columns") before every part of the layout. Add role="presentation" to layout tables.',
    { location: table.location },
  )
}

let loading: Promise<ParserClass> | undefined

/** Loads htmlparser2 once (a dynamic import, so `import('sendbox')` stays light). */
export function loadParser(): Promise<ParserClass> {
  loading ??= import('htmlparser2').then((module) => module.Parser as unknown as ParserClass)
  return loading
}

/** {@link scanEmailHtml} with the parser loaded. */
export async function staticEmailChecks(html: string): Promise<Check[]> {
  return scanEmailHtml(html, await loadParser())
}
