/**
 * A tiny HTML tokenizer for the Source tab: enough to colour tags, attribute names, values,
 * comments and the doctype. It never builds a DOM and never interprets the markup, so hostile
 * HTML is only ever shown as text.
 */
export type HtmlTokenKind = 'text' | 'tag' | 'attr' | 'value' | 'comment' | 'doctype' | 'punct'

export interface HtmlToken {
  kind: HtmlTokenKind
  text: string
}

const TAG_OPEN = /<(\/?)([A-Za-z][\w:-]*)/y
const ATTRIBUTE = /(\s+)([^\s"'>/=]+)(?:(\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+))?/y
const TAG_END = /\s*\/?>/y

/** Splits HTML into coloured runs; concatenating every token's text gives the input back. */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = []
  const push = (kind: HtmlTokenKind, text: string) => {
    if (text === '') return
    const last = tokens[tokens.length - 1]
    if (last && last.kind === kind && kind === 'text') last.text += text
    else tokens.push({ kind, text })
  }
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt === -1) {
      push('text', html.slice(i))
      break
    }
    push('text', html.slice(i, lt))
    i = lt
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4)
      const stop = end === -1 ? html.length : end + 3
      push('comment', html.slice(i, stop))
      i = stop
      continue
    }
    if (html.startsWith('<!', i) || html.startsWith('<?', i)) {
      const end = html.indexOf('>', i)
      const stop = end === -1 ? html.length : end + 1
      push('doctype', html.slice(i, stop))
      i = stop
      continue
    }
    TAG_OPEN.lastIndex = i
    const open = TAG_OPEN.exec(html)
    if (!open) {
      push('text', '<')
      i++
      continue
    }
    push('punct', '<' + open[1])
    push('tag', open[2])
    i = tagRest(html, TAG_OPEN.lastIndex, push)
  }
  return tokens
}

/** A tag's attributes and its end (`>` or `/>`), from `i`; returns where the tag ends. */
function tagRest(html: string, i: number, push: (kind: HtmlTokenKind, text: string) => void): number {
  for (;;) {
    ATTRIBUTE.lastIndex = i
    const attribute = ATTRIBUTE.exec(html)
    if (!attribute) break
    push('text', attribute[1])
    push('attr', attribute[2])
    if (attribute[3]) {
      push('punct', attribute[3])
      push('value', attribute[4])
    }
    i = ATTRIBUTE.lastIndex
  }
  TAG_END.lastIndex = i
  const end = TAG_END.exec(html)
  if (!end) return i
  push('punct', end[0])
  return TAG_END.lastIndex
}
