import { Box, Text } from 'ink'
import terminalLink from 'terminal-link'
import type { Colour } from '../format.js'

/** A run of text with one style; `link` makes it a terminal hyperlink where the terminal supports it. */
export interface Segment {
  text: string
  color?: Colour
  background?: Colour
  bold?: boolean
  dim?: boolean
  link?: string
}

/** One screen row of a scrollable view. */
export type StyledLine = readonly Segment[]

/** Shorthand for a segment. */
export function seg(text: string, style: Omit<Segment, 'text'> = {}): Segment {
  return { text, ...style }
}

function SegmentText({ segment }: { segment: Segment }) {
  const text = segment.link
    ? terminalLink(segment.text, segment.link, { fallback: (text) => text })
    : segment.text
  return (
    <Text color={segment.color} backgroundColor={segment.background} bold={segment.bold} dimColor={segment.dim}>
      {text}
    </Text>
  )
}

/**
 * Renders the visible window `[top, top + height)` of `lines`, one screen row each, cut with an
 * ellipsis at the width: long values never wrap into the next row.
 */
export function StyledLines({ lines, top, height }: { lines: readonly StyledLine[]; top: number; height: number }) {
  const visible = lines.slice(top, top + height)
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
