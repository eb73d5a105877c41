import { record, scanDeclarations, type Found } from './compat-css.js'

/**
 * A `<style>` element's text → caniemail slugs: comments, at-rules (and their media features),
 * selectors (types, classes, ids, attributes, combinators, pseudo-classes and -elements, grouping,
 * chaining, nesting) and declarations. One pass; offsets are absolute (`offset` is the text's).
 */

type Block = 'top' | 'group' | 'decl' | 'keyframes'

const PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-letter', 'first-line', 'marker', 'placeholder'])

/** Blanks out comments (keeping offsets), recording `css-comments`. */
function withoutComments(css: string, offset: number, found: Found): string {
  if (!css.includes('/*')) return css
  return css.replace(/\/\*[\s\S]*?(\*\/|$)/g, (comment, _end, at: number) => {
    record(found, 'css-comments', offset + at)
    return ' '.repeat(comment.length)
  })
}

/** The media features and other at-rules; returns what the rule's block holds. */
function scanAtRule(prelude: string, at: number, found: Found): Block {
  const rule = prelude.toLowerCase()
  const name = /^@([-\w]+)/.exec(rule)?.[1] ?? ''
  if (name === 'media') {
    record(found, 'css-at-media', at)
    if (rule.includes('prefers-color-scheme')) record(found, 'css-at-media-prefers-color-scheme', at)
    if (rule.includes('prefers-reduced-motion')) record(found, 'css-at-media-prefers-reduced-motion', at)
    if (rule.includes('orientation')) record(found, 'css-at-media-orientation', at)
    if (/\((any-)?hover\b/.test(rule)) record(found, 'css-at-media-hover', at)
    if (rule.includes('device-pixel-ratio')) record(found, 'css-at-media-device-pixel-ratio', at)
    return 'group'
  }
  if (name === 'supports') record(found, 'css-at-supports', at)
  if (name === 'font-face') record(found, 'css-at-font-face', at)
  if (name === 'import') record(found, 'css-at-import', at)
  if (name.endsWith('keyframes')) {
    record(found, 'css-at-keyframes', at)
    return 'keyframes'
  }
  return name === 'font-face' || name === 'page' ? 'decl' : 'group'
}

/** One selector list (`a:hover, .x > p`). */
export function scanSelectors(prelude: string, at: number, found: Found): void {
  if (/,(?![^(]*\))/.test(prelude)) record(found, 'css-selector-grouping', at)
  for (const match of prelude.matchAll(/(::?)([a-z-]+)/gi)) {
    const name = match[2]!.toLowerCase()
    const element = match[1] === '::' || PSEUDO_ELEMENTS.has(name)
    record(found, element ? `css-pseudo-element-${name}` : `css-pseudo-class-${name}`, at)
  }
  // Attribute contents and pseudo arguments hold no selector syntax of their own here.
  const plain = prelude.replace(/\[[^\]]*\]/g, '[]').replace(/::?[a-z-]+(\([^)]*\))?/gi, '')
  if (plain.includes('[]')) record(found, 'css-selector-attribute', at)
  if (/\.[_a-z-]/i.test(plain)) record(found, 'css-selector-class', at)
  if (/#[_a-z-]/i.test(plain)) record(found, 'css-selector-id', at)
  if (plain.includes('*')) record(found, 'css-selector-universal', at)
  if (plain.includes('>')) record(found, 'css-selector-child', at)
  if (plain.includes('+')) record(found, 'css-selector-adjacent-sibling', at)
  if (plain.includes('~')) record(found, 'css-selector-general-sibling', at)
  if (/(^|[\s>+~,])[a-z][\w-]*/i.test(plain)) record(found, 'css-selector-type', at)
  if (/[^\s>+~,]\s+[^\s>+~,]/.test(plain.trim())) record(found, 'css-selector-descendant', at)
  if (/[\w\]*-][.#[]/.test(plain)) record(found, 'css-selector-chaining', at)
}

/** What a `{` opens, given the prelude before it and the block it sits in. */
function open(prelude: string, at: number, within: Block, found: Found): Block {
  if (prelude.startsWith('@')) return scanAtRule(prelude, at, found)
  if (within === 'keyframes') return 'decl'
  if (within === 'decl') record(found, 'css-nesting', at)
  scanSelectors(prelude, at, found)
  return 'decl'
}

/** A stylesheet's text starting at `offset` in the HTML. */
export function scanStylesheet(source: string, offset: number, found: Found): void {
  const css = withoutComments(source, offset, found)
  const stack: Block[] = ['top']
  let i = 0
  const next = /[{};]/g
  for (let match = next.exec(css); match; match = next.exec(css)) {
    const text = css.slice(i, match.index)
    const lead = text.length - text.trimStart().length
    const prelude = text.trim()
    const at = offset + i + lead
    const within = stack.at(-1)!
    if (match[0] === '{') stack.push(open(prelude, at, within, found))
    else if (within === 'decl') scanDeclarations(text, offset + i, found)
    else if (prelude.startsWith('@')) scanAtRule(prelude, at, found)
    if (match[0] === '}' && stack.length > 1) stack.pop()
    i = match.index + 1
  }
}
