import { Box, Text } from 'ink'
import { memo } from 'react'
import type { CapturedMessage } from '../../domain/outbox.js'
import { CHANNEL_BADGES, clockTime, messageSummary, printable, STATUS_COLOURS } from '../format.js'

const TIME_WIDTH = 9
const BADGE_WIDTH = 11
const STATUS_WIDTH = 10
const MARKER_WIDTH = 2

/** The recipient column: a quarter of the row, at least 14 cells, at most 36. */
function recipientWidth(width: number): number {
  return Math.max(14, Math.min(36, Math.floor(width / 4)))
}

/** One message row; memoised so a status change repaints only its own row's tree. */
const MessageRow = memo(function MessageRow({ message, selected, width }: { message: CapturedMessage; selected: boolean; width: number }) {
  const badge = CHANNEL_BADGES[message.channel]
  return (
    <Box width={width} height={1} backgroundColor={selected ? 'blackBright' : undefined}>
      <Box width={MARKER_WIDTH} flexShrink={0}>
        <Text color="cyan" bold>{selected ? '›' : ' '}</Text>
      </Box>
      <Box width={TIME_WIDTH} flexShrink={0}>
        <Text dimColor={!selected}>{clockTime(message.created_at)}</Text>
      </Box>
      <Box width={BADGE_WIDTH} flexShrink={0}>
        <Text backgroundColor={badge.background} color={badge.foreground} bold>{` ${badge.label} `}</Text>
      </Box>
      <Box width={recipientWidth(width)} flexShrink={0} marginRight={1}>
        <Text wrap="truncate-end" bold={selected}>{printable(message.to)}</Text>
      </Box>
      <Box flexGrow={1} flexShrink={1} flexBasis={0}>
        <Text wrap="truncate-end" bold={selected}>{messageSummary(message)}</Text>
      </Box>
      <Box width={STATUS_WIDTH} flexShrink={0} marginLeft={1}>
        <Text color={STATUS_COLOURS[message.status]} bold={selected}>{message.status}</Text>
      </Box>
    </Box>
  )
})

/**
 * The outbox, newest first: only `visible` rows are rendered (the caller windows the list), so a
 * 10,000-message outbox costs what a screenful costs.
 */
export function OutboxList({ visible, selectedId, width, height, total, emptyText }: {
  visible: readonly CapturedMessage[]
  selectedId: string | undefined
  width: number
  height: number
  total: number
  emptyText: string
}) {
  return (
    <Box flexDirection="column" width={width} height={height + 1} overflow="hidden">
      <Box width={width} height={1}>
        <Box width={MARKER_WIDTH} flexShrink={0}><Text> </Text></Box>
        <Box width={TIME_WIDTH} flexShrink={0}><Text bold underline>TIME</Text></Box>
        <Box width={BADGE_WIDTH} flexShrink={0}><Text bold underline>CHANNEL</Text></Box>
        <Box width={recipientWidth(width)} flexShrink={0} marginRight={1}><Text bold underline>TO</Text></Box>
        <Box flexGrow={1} flexShrink={1} flexBasis={0}><Text bold underline wrap="truncate-end">SUBJECT / TEXT / TEMPLATE</Text></Box>
        <Box width={STATUS_WIDTH} flexShrink={0} marginLeft={1}><Text bold underline>STATUS</Text></Box>
      </Box>
      {total === 0 ? (
        <Box paddingLeft={MARKER_WIDTH}><Text dimColor wrap="truncate-end">{emptyText}</Text></Box>
      ) : (
        visible.map((message) => (
          <MessageRow key={message.message_id} message={message} selected={message.message_id === selectedId} width={width} />
        ))
      )}
    </Box>
  )
}
