import { Parser } from 'htmlparser2'

import { writeBounded, type Depth } from '../../bounded-parse.js'
import { featureTitles } from './compat-data.js'
import { record, scanDeclarations, type Found } from './compat-css.js'
import { scanStylesheet } from './compat-stylesheet.js'

/**
 * An email's HTML → the caniemail features it uses, each at the offset of its first occurrence:
 * elements, attributes, link kinds, image formats, comments, the doctype, and the CSS of its
 * `<style>` elements and `style` attributes. One streaming pass of htmlparser2 (no tree is built);
 * a `style` attribute seen before is not scanned again. It stops at the parse depth
 * (src/domain/bounded-parse.ts), which the static checks report.
 */

const SPECIAL_ELEMENTS: Record<string, string[]> = {
  'html-address': ['address'],
  'html-h1-h6': ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  'html-lists': ['ul', 'ol', 'dl'],
  'html-semantics': [
    'article',
    'aside',
    'details',
    'figcaption',
    'figure',
    'footer',
    'header',
    'main',
    'mark',
    'nav',
    'section',
    'summary',
    'time',
  ],
  'html-image-maps': ['map', 'area'],
  'html-svg': ['svg'],
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image-png',
  apng: 'image-apng',
  gif: 'image-gif',
  jpg: 'image-jpg',
  jpeg: 'image-jpg',
  webp: 'image-webp',
  svg: 'image-svg',
  'svg+xml': 'image-svg',
  avif: 'image-avif',
  bmp: 'image-bmp',
  ico: 'image-ico',
  'x-icon': 'image-ico',
  tif: 'image-tiff',
  tiff: 'image-tiff',
  heic: 'image-heif',
  heif: 'image-heif',
  mp4: 'image-mp4',
}

interface Tables {
  elements: Map<string, string>
  attributes: Map<string, string>
}

let tables: Tables | undefined

/** Element and attribute names → slugs, from caniemail's titles (`<div> element`, `align attribute`). */
function htmlTables(): Tables {
  if (tables) return tables
  const elements = new Map<string, string>()
  const attributes = new Map<string, string>()
  for (const [slug, title] of featureTitles()) {
    if (!slug.startsWith('html-')) continue
    const element = /^<([a-z0-9]+)>( element)?$/.exec(title)?.[1]
    if (element) elements.set(element, slug)
    for (const name of SPECIAL_ELEMENTS[slug] ?? []) elements.set(name, slug)
    const attribute = /^([a-z-]+) attribute$/.exec(title)?.[1]
    if (attribute) attributes.set(attribute, slug)
  }
  attributes.set('srcset', 'html-srcset').set('sizes', 'html-srcset').set('usemap', 'html-image-maps')
  tables = { elements, attributes }
  return tables
}

function imageFormat(src: string, at: number, found: Found): void {
  const data = /^\s*data:image\/([a-z0-9.+-]+)/i.exec(src)
  if (data) record(found, 'image-base64', at)
  const type = data?.[1] ?? /\.([a-z0-9]+)\s*(?:[?#]|$)/i.exec(src)?.[1]
  const slug = type ? IMAGE_TYPES[type.toLowerCase()] : undefined
  if (slug) record(found, slug, at)
}

/** What an element and its attributes use, the element starting at `at`. */
function scanElement(name: string, attribs: Record<string, string>, at: number, found: Found): void {
  const { elements, attributes } = htmlTables()
  const type = (attribs.type ?? '').toLowerCase()
  if (name === 'input') record(found, `html-input-${type || 'text'}`, at)
  else if (name === 'button') record(found, `html-button-${type || 'submit'}`, at)
  else {
    const slug = elements.get(name)
    if (slug) record(found, slug, at)
  }
  for (const attribute of Object.keys(attribs)) {
    const slug = attributes.get(attribute)
    if (slug) record(found, slug, at)
  }
  if (name === 'a') {
    const href = (attribs.href ?? '').trim().toLowerCase()
    if (href.length > 1 && href.startsWith('#')) record(found, 'html-anchor-links', at)
    if (href.startsWith('mailto:')) record(found, 'html-mailto-links', at)
  }
  if (name === 'img' && attribs.src) imageFormat(attribs.src, at, found)
  if (name === 'meta' && /^(color-scheme|supported-color-schemes)$/i.test(attribs.name ?? ''))
    record(found, 'html-meta-color-scheme', at)
  if (name === 'html' && ('⚡4email' in attribs || 'amp4email' in attribs)) record(found, 'amp', at)
}

/** The features an email's HTML uses: slug → offset of the first occurrence. */
export function scanHtml(html: string): Found {
  const found: Found = new Map()
  const styles = new Set<string>()
  let style: { text: string; at: number } | undefined
  const counter: Depth = { depth: 0 }
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs) {
        counter.depth++
        const at = parser.startIndex
        scanElement(name, attribs, at, found)
        if (name === 'style') style = { text: '', at: -1 }
        const inline = attribs.style
        if (inline && !styles.has(inline)) {
          styles.add(inline)
          const where = html.indexOf(inline, at)
          scanDeclarations(inline, where >= 0 && where <= parser.endIndex ? where : at, found)
        }
      },
      ontext(text) {
        if (!style) return
        if (style.at < 0) style.at = parser.startIndex
        style.text += text
      },
      onclosetag(name) {
        counter.depth--
        if (name !== 'style' || !style) return
        if (style.at >= 0) scanStylesheet(style.text, style.at, found)
        style = undefined
      },
      oncomment() {
        record(found, 'html-comments', parser.startIndex)
      },
      onprocessinginstruction(_name, data) {
        if (/^!doctype\s+html\s*$/i.test(data)) record(found, 'html-doctype', parser.startIndex)
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  writeBounded(parser, html, counter)
  return found
}
