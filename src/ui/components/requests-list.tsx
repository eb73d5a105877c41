import { Box, Text } from 'ink'
import { memo } from 'react'
import type { JournalEntry } from '../../domain/journal.js'
import { clockTime, httpStatusColour, printable } from '../format.js'

const MARKER_WIDTH = 2
const TIME_WIDTH = 9
const METHOD_WIDTH = 8
const STATUS_WIDTH = 5
const DURATION_WIDTH = 9
const CODE_WIDTH = 20

/** Durations read best with one decimal under 10 ms and none above. */
function duration(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`
}

const RequestRow = memo(function RequestRow({ entry, selected, width }: { entry: JournalEntry; selected: boolean; width: number }) {
  const method = entry.kind === 'webhook' ? `${entry.method}↗` : entry.method
  return (
    <Box width={width} height={1} backgroundColor={selected ? 'blackBright' : undefined}>
      <Box width={MARKER_WIDTH} flexShrink={0}><Text color="cyan" bold>{selected ? '›' : ' '}</Text></Box>
      <Box width={TIME_WIDTH} flexShrink={0}><Text dimColor={!selected}>{clockTime(entry.at)}</Text></Box>
      <Box width={METHOD_WIDTH} flexShrink={0}><Text bold>{method}</Text></Box>
      <Box flexGrow={1} flexShrink={1} flexBasis={0} marginRight={1}>
        <Text wrap="truncate-end" bold={selected}>{printable(entry.path)}</Text>
      </Box>
      <Box width={STATUS_WIDTH} flexShrink={0}><Text color={httpStatusColour(entry.status)} bold>{entry.status === 0 ? '---' : String(entry.status)}</Text></Box>
      <Box width={DURATION_WIDTH} flexShrink={0} justifyContent="flex-end" marginRight={1}><Text>{duration(entry.duration_ms)}</Text></Box>
      <Box width={CODE_WIDTH} flexShrink={0}><Text wrap="truncate-end" color={entry.error_code ? httpStatusColour(entry.status) : undefined} dimColor={!entry.error_code}>{entry.error_code ?? '—'}</Text></Box>
    </Box>
  )
})

/** The request journal, newest first, windowed like the outbox. Webhook deliveries are marked `POST↗`. */
export function RequestsList({ visible, selectedId, width, height, total }: {
  visible: readonly JournalEntry[]
  selectedId: number | undefined
  width: number
  height: number
  total: number
}) {
  return (
    <Box flexDirection="column" width={width} height={height + 1} overflow="hidden">
      <Box width={width} height={1}>
        <Box width={MARKER_WIDTH} flexShrink={0}><Text> </Text></Box>
        <Box width={TIME_WIDTH} flexShrink={0}><Text bold underline>TIME</Text></Box>
        <Box width={METHOD_WIDTH} flexShrink={0}><Text bold underline>METHOD</Text></Box>
        <Box flexGrow={1} flexShrink={1} flexBasis={0} marginRight={1}><Text bold underline>PATH</Text></Box>
        <Box width={STATUS_WIDTH} flexShrink={0}><Text bold underline>STAT</Text></Box>
        <Box width={DURATION_WIDTH} flexShrink={0} justifyContent="flex-end" marginRight={1}><Text bold underline>DURATION</Text></Box>
        <Box width={CODE_WIDTH} flexShrink={0}><Text bold underline>ERROR CODE</Text></Box>
      </Box>
      {total === 0 ? (
        <Box paddingLeft={MARKER_WIDTH}><Text dimColor wrap="truncate-end">No requests yet. Every call to the API shows up here, live.</Text></Box>
      ) : (
        visible.map((entry) => <RequestRow key={entry.id} entry={entry} selected={entry.id === selectedId} width={width} />)
      )}
    </Box>
  )
}
