/** @jsxImportSource preact */
/**
 * The Source tab of an email: its HTML coloured by {@link tokenizeHtml}, one element per line so
 * that a check's location (Checks tab) can mark and scroll to its line. Shown as text only.
 */
import { useEffect, useMemo, useRef } from 'preact/hooks'
import { safeText } from '../../../domain/safe-text.js'
import { tokenizeHtml, type HtmlToken } from './html-tokens.js'

const SOURCE_HIGHLIGHT_CAP = 200_000

/** The tokens cut at each line break: line N (1-based) is `lines[N - 1]`. */
export function tokenLines(tokens: readonly HtmlToken[]): HtmlToken[][] {
  const lines: HtmlToken[][] = [[]]
  for (const token of tokens) {
    const parts = token.text.split('\n')
    parts.forEach((part, i) => {
      if (i > 0) lines.push([])
      if (part !== '') lines[lines.length - 1].push({ kind: token.kind, text: part })
    })
  }
  return lines
}

export function HtmlSource({ html, line }: { html: string; line?: number }) {
  const lines = useMemo(() => tokenLines(tokenizeHtml(html.slice(0, SOURCE_HIGHLIGHT_CAP))), [html])
  const marked = useRef<HTMLSpanElement | null>(null)
  useEffect(() => {
    marked.current?.scrollIntoView({ block: 'center' })
    marked.current?.focus({ preventScroll: true })
  }, [line, html])
  return (
    <pre class="code source" aria-label="HTML source" tabIndex={0}>
      <code>
        {lines.map((tokens, i) => (
          <span
            key={i}
            class={i + 1 === line ? 'src-line src-line-marked' : 'src-line'}
            data-line={i + 1}
            ref={i + 1 === line ? marked : undefined}
            tabIndex={i + 1 === line ? -1 : undefined}
            aria-current={i + 1 === line ? 'location' : undefined}
          >
            {tokens.map((t, j) =>
              t.kind === 'text' ? (
                safeText(t.text)
              ) : (
                <span key={j} class={`tok-${t.kind}`}>
                  {safeText(t.text)}
                </span>
              ),
            )}
            {'\n'}
          </span>
        ))}
        {html.length > SOURCE_HIGHLIGHT_CAP ? safeText(html.slice(SOURCE_HIGHLIGHT_CAP)) : null}
      </code>
    </pre>
  )
}
