import { Box, Text } from 'ink'
import terminalLink from 'terminal-link'
import { printable } from '../cells.js'
import type { Segment, StyledLine } from '../page.js'

export { seg, type Segment, type StyledLine } from '../page.js'

function SegmentText({ segment }: { segment: Segment }) {
  // An OSC 8 target is written raw into the terminal stream: only a printable one (no ESC or BEL
  // that could end the sequence and start another) becomes a hyperlink.
  const text = segment.link && printable(segment.link) === segment.link
    ? terminalLink(segment.text, segment.link, { fallback: (text) => text })
    : segment.text
  return (
    <Text color={segment.color} backgroundColor={segment.background} bold={segment.bold} dimColor={segment.dim} inverse={segment.inverse}>
      {text}
    </Text>
  )
}

/**
 * Renders rows `[top, top + height)` of a view, one screen row each. Rows are made to fit the
 * width before they get here (wrapped, never cut); `truncate-end` is only a guard so that a
 * disagreement about a character's width can never push a row onto the next.
 */
export function StyledLines({ rowAt, total, top, height }: { rowAt: (index: number) => StyledLine; total: number; top: number; height: number }) {
  const visible: StyledLine[] = []
  for (let i = top; i < Math.min(total, top + height); i++) visible.push(rowAt(i))
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {visible.map((line, i) => (
        // An empty Text has no height in Ink: a blank line is a space.
        <Text key={top + i} wrap="truncate-end">
          {line.every((segment) => segment.text === '') ? ' ' : line.map((segment, j) => <SegmentText key={j} segment={segment} />)}
        </Text>
      ))}
    </Box>
  )
}
