import { Box, Text } from 'ink'
import { memo } from 'react'
import type { JournalEntry } from '../../../contract/journal.js'
import { fitCells, padCells } from '../cells.js'
import { clockTime, duration, httpStatusColour } from '../format.js'

/** Column widths of the Requests list; 0 drops a column. */
export interface RequestColumns {
  /** `#12`: the id a message's page names (`request #12`). */
  id: number
  time: number
  method: number
  path: number
  status: number
  duration: number
  code: number
}

/** Full columns from 80 cells; from 60 the duration goes and the id narrows; below 60 the time goes and the error code narrows; below 50 the id goes. */
export function requestColumns(width: number): RequestColumns {
  const time = width < 60 ? 0 : 9
  const method = width < 60 ? 6 : 8
  const status = width < 80 ? 4 : 5
  const dur = width < 80 ? 0 : 10
  const code = width < 60 ? 10 : width < 80 ? 14 : 20
  // Below 50 cells the id goes (a message's page still names it): the path needs the room.
  const id = width < 50 ? 0 : width < 80 ? 5 : 7
  const path = Math.max(6, width - 2 - id - time - method - status - dur - code)
  return { id, time, method, path, status, duration: dur, code }
}

const RequestRow = memo(function RequestRow({
  entry,
  selected,
  columns,
}: {
  entry: JournalEntry
  selected: boolean
  columns: RequestColumns
}) {
  const method = entry.kind === 'webhook' ? `${entry.method}↗` : entry.method
  const path = entry.query ? `${entry.path}?${entry.query}` : entry.path
  return (
    <Box height={1} backgroundColor={selected ? 'blackBright' : undefined}>
      <Text color="cyan" bold>
        {selected ? '› ' : '  '}
      </Text>
      {columns.id > 0 ? <Text dimColor={!selected}>{padCells(`#${entry.id}`, columns.id - 1)} </Text> : null}
      {columns.time > 0 ? <Text dimColor={!selected}>{padCells(clockTime(entry.at), columns.time)}</Text> : null}
      <Text bold>{padCells(method, columns.method - 1)} </Text>
      <Text bold={selected}>{padCells(path, columns.path - 1)} </Text>
      <Text color={httpStatusColour(entry.status)} bold>
        {padCells(entry.status === 0 ? '---' : String(entry.status), columns.status - 1)}{' '}
      </Text>
      {columns.duration > 0 ? (
        <Text>{padCells(duration(entry.duration_ms).padStart(columns.duration - 1), columns.duration)}</Text>
      ) : null}
      <Text color={entry.error_code ? httpStatusColour(entry.status) : undefined} dimColor={!entry.error_code}>
        {fitCells(entry.error_code ?? '—', columns.code)}
      </Text>
    </Box>
  )
})

/** The request journal, newest first, windowed like the outbox. Webhook deliveries are marked `POST↗`. */
export function RequestsList({
  visible,
  selectedId,
  width,
  height,
  total,
  emptyText,
}: {
  visible: readonly JournalEntry[]
  selectedId: number | undefined
  width: number
  height: number
  total: number
  emptyText: string
}) {
  const columns = requestColumns(width)
  // Each heading is cut one cell short of its column, so a full label never runs into the next.
  const cell = (label: string, cells: number) => (cells > 0 ? `${padCells(label, cells - 1)} ` : '')
  const heading = [
    cell('#', columns.id),
    cell('TIME', columns.time),
    cell('METHOD', columns.method),
    cell('PATH', columns.path),
    cell('STAT', columns.status),
    columns.duration > 0 ? cell('DURATION'.padStart(columns.duration - 1), columns.duration) : '',
    width < 60 ? 'ERROR' : 'ERROR CODE',
  ]
  return (
    <Box flexDirection="column" width={width} height={height + 1} overflow="hidden">
      <Text bold wrap="truncate-end">{`  ${heading.join('')}`}</Text>
      {total === 0 ? (
        <Box paddingLeft={2}>
          <Text dimColor wrap="truncate-end">
            {fitCells(emptyText, width - 2)}
          </Text>
        </Box>
      ) : (
        visible.map((entry) => (
          <RequestRow key={entry.id} entry={entry} selected={entry.id === selectedId} columns={columns} />
        ))
      )}
    </Box>
  )
}
