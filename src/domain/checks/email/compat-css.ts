import { featureTitles } from './compat-data.js'

/**
 * CSS → caniemail feature slugs: properties, values, functions, units, selectors and at-rules of an
 * email's `<style>` elements and `style` attributes. A single pass over the text; each slug is
 * recorded at its first offset only (`Found`).
 */

/** The features found so far: slug → offset of the first occurrence in the HTML. */
export type Found = Map<string, number>

export function record(found: Found, slug: string, offset: number): void {
  if (!found.has(slug)) found.set(slug, offset)
}

/** Properties whose caniemail title does not name them plainly. */
const PROPERTY_OVERRIDES: Record<string, string[]> = {
  'css-border': [
    'border',
    'border-width',
    'border-style',
    'border-color',
    ...['top', 'right', 'bottom', 'left'].flatMap((side) => [
      `border-${side}`,
      `border-${side}-width`,
      `border-${side}-style`,
      `border-${side}-color`,
    ]),
  ],
  'css-margin': ['margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left'],
  'css-padding': ['padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left'],
  'css-border-inline-block-individual': [
    'border-inline-start',
    'border-inline-end',
    'border-block-start',
    'border-block-end',
  ],
  'css-border-inline-block-longhand': [
    'border-inline-width',
    'border-inline-style',
    'border-inline-color',
    'border-block-width',
    'border-block-style',
    'border-block-color',
  ],
  'css-border-radius-logical': [
    'border-start-start-radius',
    'border-start-end-radius',
    'border-end-start-radius',
    'border-end-end-radius',
  ],
  'css-column-layout-properties': [
    'column-width',
    'column-rule',
    'column-rule-width',
    'column-rule-style',
    'column-rule-color',
    'column-span',
    'column-fill',
    'columns',
  ],
  'css-grid-template': ['grid-template', 'grid-template-columns', 'grid-template-rows', 'grid-template-areas'],
  'css-font': ['font'],
  'css-color-scheme': ['color-scheme'],
  'css-scroll-snap': ['scroll-snap-type', 'scroll-snap-align', 'scroll-snap-stop', 'scroll-padding', 'scroll-margin'],
  'css-background': ['background'],
  'css-display-flex': [],
  'css-display-grid': [],
  'css-display-none': [],
  'css-flex-direction': [],
  'css-flex-wrap': [],
  'css-important': [],
  'css-nesting': [],
  'css-comments': [],
  'css-variables': [],
  'css-sytem-ui': [],
  'css-intrinsic-size': [],
  'css-modern-color': [],
  'css-linear-gradient': [],
  'css-radial-gradient': [],
  'css-conic-gradient': [],
  'css-rgb': [],
  'css-rgba': [],
  'css-unit-calc': [],
}

const NOT_PROPERTIES = /^css-(unit|function|pseudo|selector|at)-/

let properties: Map<string, string> | undefined

/** CSS property → slug, from caniemail's titles (`gap, column-gap, row-gap`, `height property`) and the overrides. */
export function propertyTable(): Map<string, string> {
  if (properties) return properties
  properties = new Map()
  for (const [slug, title] of featureTitles()) {
    if (!slug.startsWith('css-') || NOT_PROPERTIES.test(slug)) continue
    const names =
      PROPERTY_OVERRIDES[slug] ??
      title
        .split(/,|&/)
        .map((part) =>
          part
            .trim()
            .replace(/ propert(y|ies)$/, '')
            .toLowerCase(),
        )
        .filter((part) => /^[a-z-]+$/.test(part))
    for (const name of names) if (!properties.has(name)) properties.set(name, slug)
  }
  return properties
}

const FUNCTIONS: Array<[RegExp, string]> = [
  [/\bcalc\(/i, 'css-unit-calc'],
  [/\bclamp\(/i, 'css-function-clamp'],
  [/\bmin\(/i, 'css-function-min'],
  [/\bmax\(/i, 'css-function-max'],
  [/\blight-dark\(/i, 'css-function-light-dark'],
  [/(^|[^-\w])(repeating-)?linear-gradient\(/i, 'css-linear-gradient'],
  [/(^|[^-\w])(repeating-)?radial-gradient\(/i, 'css-radial-gradient'],
  [/(^|[^-\w])(repeating-)?conic-gradient\(/i, 'css-conic-gradient'],
  [/\brgb\(/i, 'css-rgb'],
  [/\brgba\(/i, 'css-rgba'],
  [/\b(ok)?(lch|lab)\(/i, 'css-modern-color'],
  [/\bvar\(/i, 'css-variables'],
  [/\b(fit|min|max)-content\b/i, 'css-intrinsic-size'],
  [/!\s*important/i, 'css-important'],
  [/^\s*initial\s*(!|$)/i, 'css-unit-initial'],
]
const UNITS = /(?:^|[\s,(/+*-])[-+]?(?:\d+\.?\d*|\.\d+)(px|em|rem|ex|ch|pt|pc|cm|mm|in|vw|vh|vmin|vmax|%)(?![a-z])/gi
const SYSTEM_FONTS = /\b(system-ui|ui-serif|ui-sans-serif|ui-rounded|ui-monospace)\b/i

/** One declaration `property: value` whose property starts at `offset` (absolute). */
export function scanDeclaration(property: string, value: string, offset: number, found: Found): void {
  const name = property.trim().toLowerCase()
  if (name.startsWith('--')) record(found, 'css-variables', offset)
  const slug = propertyTable().get(name)
  if (slug) record(found, slug, offset)
  const plain = value
    .replace(/!\s*important/i, '')
    .trim()
    .toLowerCase()
  if (name === 'display') {
    if (/^(inline-)?flex$/.test(plain)) record(found, 'css-display-flex', offset)
    else if (/^(inline-)?grid$/.test(plain)) record(found, 'css-display-grid', offset)
    else if (plain === 'none') record(found, 'css-display-none', offset)
  } else if (name === 'flex-direction' && plain.startsWith('column')) record(found, 'css-flex-direction', offset)
  else if (name === 'flex-wrap' && plain.startsWith('wrap')) record(found, 'css-flex-wrap', offset)
  else if (name === 'flex-flow' && /\bcolumn/.test(plain)) record(found, 'css-flex-direction', offset)
  if ((name === 'font-family' || name === 'font') && SYSTEM_FONTS.test(plain)) record(found, 'css-sytem-ui', offset)
  for (const [pattern, fn] of FUNCTIONS) if (pattern.test(value)) record(found, fn, offset)
  for (const match of value.matchAll(UNITS))
    record(found, `css-unit-${match[1]!.toLowerCase() === '%' ? 'percent' : match[1]!.toLowerCase()}`, offset)
}

/** A declaration list (`a: b; c: d`, a `style` attribute or a rule's block) starting at `offset`. */
export function scanDeclarations(text: string, offset: number, found: Found): void {
  let start = 0
  while (start < text.length) {
    let end = text.indexOf(';', start)
    if (end < 0) end = text.length
    const colon = text.indexOf(':', start)
    if (colon > start && colon < end) {
      const property = text.slice(start, colon)
      const skipped = property.length - property.trimStart().length
      scanDeclaration(property, text.slice(colon + 1, end), offset + start + skipped, found)
    }
    start = end + 1
  }
}
