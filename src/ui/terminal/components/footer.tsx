import { Box, Text } from 'ink'
import { wrapRows } from '../cells.js'

/** What the bottom row says: a question, the search being typed, a notice, or the keys for this view. */
export type FooterContent =
  | { kind: 'confirm'; question: string }
  | { kind: 'search'; query: string }
  /** A line being typed (a simulated reply): its label, the text so far, what Enter and Esc do. */
  | { kind: 'prompt'; label: string; text: string; hint: string }
  | { kind: 'notice'; text: string; tone: 'ok' | 'error' }
  | { kind: 'keys'; keys: ReadonlyArray<readonly [string, string]>; aside?: string }

/** Most rows a notice takes: enough for a long URL (a preview link with its token) to show in full. */
const MAX_NOTICE_ROWS = 4

function noticeRows(text: string, width: number): string[] {
  const rows = wrapRows(text, width)
  return rows.length > MAX_NOTICE_ROWS
    ? [...rows.slice(0, MAX_NOTICE_ROWS - 1), rows.slice(MAX_NOTICE_ROWS - 1).join('')]
    : rows
}

/** A question and its `y/n`, wrapped: a long list (what a reset clears) is read in full. */
function confirmRows(question: string, width: number): string[] {
  return noticeRows(`${question}  y/n`, width)
}

/** Rows the footer takes: one, or a notice or question wrapped (a URL to open by hand must be readable in full). */
export function footerHeight(content: FooterContent, width: number): number {
  if (content.kind === 'confirm') return confirmRows(content.question, width).length
  return content.kind === 'notice' ? noticeRows(content.text, width).length : 1
}

/**
 * The bottom row: a question, the search being typed, the keys of this view (cut with an
 * ellipsis; `? help` and `q quit` always stay visible on the right), or a notice, which wraps
 * over a few rows so a URL printed there is complete.
 */
export function Footer({ content, width }: { content: FooterContent; width: number }) {
  if (content.kind === 'notice') {
    return (
      <Box width={width} flexDirection="column">
        {noticeRows(content.text, width).map((row, i) => (
          <Text key={i} wrap="truncate-end" color={content.tone === 'ok' ? 'green' : 'red'}>
            {row}
          </Text>
        ))}
      </Box>
    )
  }
  if (content.kind === 'confirm') return <Question question={content.question} width={width} />
  return (
    <Box width={width} height={1}>
      {content.kind === 'prompt' ? (
        <Prompt content={content} />
      ) : content.kind === 'search' ? (
        <Text wrap="truncate-end">
          <Text color="cyan" bold>
            /
          </Text>
          <Text>{content.query}</Text>
          <Text inverse> </Text>
          <Text dimColor>{'   Enter keep · Esc clear'}</Text>
        </Text>
      ) : (
        <>
          <Box flexGrow={1} flexShrink={1}>
            <Text wrap="truncate-end">
              {content.keys.map(([key, what], i) => (
                <Text key={i}>
                  {i > 0 ? '  ' : ''}
                  <Text color="yellow" bold>
                    {key}
                  </Text>
                  <Text dimColor>{` ${what}`}</Text>
                </Text>
              ))}
            </Text>
          </Box>
          <Box flexShrink={0} marginLeft={1}>
            <Text>
              {content.aside ? <Text dimColor>{`${content.aside}  `}</Text> : null}
              <Text color="yellow" bold>
                ?
              </Text>
              <Text dimColor>{' help  '}</Text>
              <Text color="yellow" bold>
                q
              </Text>
              <Text dimColor> quit</Text>
            </Text>
          </Box>
        </>
      )}
    </Box>
  )
}

/** A question over as many rows as it takes, its `y/n` at the end. */
function Question({ question, width }: { question: string; width: number }) {
  const rows = confirmRows(question, width)
  return (
    <Box width={width} flexDirection="column">
      {rows.map((row, i) => (
        <Text key={i} wrap="truncate-end" color="yellow" bold>
          {i < rows.length - 1 ? (
            row
          ) : (
            <>
              {row.replace(/ {2}y\/n$/, ' ')}
              <Text inverse> y/n </Text>
            </>
          )}
        </Text>
      ))}
    </Box>
  )
}

/** A line being typed: the label, the text and a cursor, then what the keys do. */
function Prompt({ content }: { content: Extract<FooterContent, { kind: 'prompt' }> }) {
  return (
    <Text wrap="truncate-end">
      <Text color="cyan" bold>{`${content.label} `}</Text>
      <Text>{content.text}</Text>
      <Text inverse> </Text>
      <Text dimColor>{`   ${content.hint}`}</Text>
    </Text>
  )
}
