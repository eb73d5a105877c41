import { Box, Text } from 'ink'
import terminalLink from 'terminal-link'
import type { Segment, StyledLine } from '../page.js'
import { isSafeText, printable } from '../../../domain/safe-text.js'

export { seg, type Segment, type StyledLine } from '../page.js'

/** A hyperlink target fit for OSC 8: an http(s) URL with nothing safe-text.ts would remove and no space (it ends the sequence's field). */
function hyperlinkable(link: string | undefined): link is string {
  return link !== undefined && /^https?:\/\/[\u0021-\u007e]+$/.test(link) && isSafeText(link)
}

function SegmentText({ segment }: { segment: Segment }) {
  // Rows come printable; made so again here, the last step before Ink writes them.
  const shown = printable(segment.text)
  const text = hyperlinkable(segment.link) ? terminalLink(shown, segment.link, { fallback: (text) => text }) : shown
  return (
    <Text
      color={segment.color}
      backgroundColor={segment.background}
      bold={segment.bold}
      dimColor={segment.dim}
      inverse={segment.inverse}
    >
      {text}
    </Text>
  )
}

/**
 * Renders rows `[top, top + height)` of a view, one screen row each. Rows are made to fit the
 * width before they get here (wrapped, never cut); `truncate-end` is only a guard so that a
 * disagreement about a character's width can never push a row onto the next.
 */
export function StyledLines({
  rowAt,
  total,
  top,
  height,
}: {
  rowAt: (index: number) => StyledLine
  total: number
  top: number
  height: number
}) {
  const visible: StyledLine[] = []
  for (let i = top; i < Math.min(total, top + height); i++) visible.push(rowAt(i))
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {visible.map((line, i) => (
        // An empty Text has no height in Ink: a blank line is a space.
        <Text key={top + i} wrap="truncate-end">
          {line.every((segment) => segment.text === '')
            ? ' '
            : line.map((segment, j) => <SegmentText key={j} segment={segment} />)}
        </Text>
      ))}
    </Box>
  )
}
