import { Box, Text } from 'ink'

/** What the bottom row says: a question, the search being typed, a notice, or the keys for this view. */
export type FooterContent =
  | { kind: 'confirm'; question: string }
  | { kind: 'search'; query: string }
  | { kind: 'notice'; text: string; tone: 'ok' | 'error' }
  | { kind: 'keys'; keys: ReadonlyArray<readonly [string, string]>; aside?: string }

/** The single bottom row; cut with an ellipsis, never wrapped. `? help` and `q quit` always stay visible on the right. */
export function Footer({ content, width }: { content: FooterContent; width: number }) {
  return (
    <Box width={width} height={1}>
      {content.kind === 'confirm' ? (
        <Text wrap="truncate-end" color="yellow" bold>{`${content.question} `}<Text inverse> y/n </Text></Text>
      ) : content.kind === 'search' ? (
        <Text wrap="truncate-end">
          <Text color="cyan" bold>/</Text>
          <Text>{content.query}</Text>
          <Text inverse> </Text>
          <Text dimColor>   Enter keep · Esc clear</Text>
        </Text>
      ) : content.kind === 'notice' ? (
        <Text wrap="truncate-end" color={content.tone === 'ok' ? 'green' : 'red'}>{content.text}</Text>
      ) : (
        <>
          <Box flexGrow={1} flexShrink={1}>
            <Text wrap="truncate-end">
              {content.keys.map(([key, what], i) => (
                <Text key={i}>
                  {i > 0 ? '  ' : ''}
                  <Text color="yellow" bold>{key}</Text>
                  <Text dimColor>{` ${what}`}</Text>
                </Text>
              ))}
            </Text>
          </Box>
          <Box flexShrink={0} marginLeft={1}>
            <Text>
              {content.aside ? <Text dimColor>{`${content.aside}  `}</Text> : null}
              <Text color="yellow" bold>?</Text>
              <Text dimColor> help  </Text>
              <Text color="yellow" bold>q</Text>
              <Text dimColor> quit</Text>
            </Text>
          </Box>
        </>
      )}
    </Box>
  )
}
