import { Box, Text } from 'ink'
import { memo } from 'react'
import { senderOf, summaryOf } from '../../../domain/channels/index.js'
import { keywordLabel } from '../qa-view.js'
import type { CapturedMessage } from '../../../contract/captured-message.js'
import { fitCells, padCells } from '../cells.js'
import { listTime, sameDay, SHORT_STATUS, STATUS_COLOURS, TIME_WIDTH } from '../format.js'
import { CHANNEL_BADGES } from '../channels/index.js'

/** Column widths for a terminal width: every column has a fixed width that adds up to the row, so nothing overlaps. */
export interface OutboxColumns {
  marker: number
  /** 0 when the time column is dropped (below 60 columns). */
  time: number
  badge: number
  short: boolean
  to: number
  summary: number
  status: number
}

/**
 * Full columns from 80 cells; from 60 the channel badge shortens; below 60 the time goes and the
 * status shortens. The summary takes what is left, at least 6 cells.
 */
export function outboxColumns(width: number, dated: boolean): OutboxColumns {
  const marker = 2
  const time = width < 60 ? 0 : (dated ? TIME_WIDTH.dated : TIME_WIDTH.today) + 1
  const short = width < 80
  const badge = short ? 4 : 11
  // A phone number (+14155550123) fits whole even at 40 columns.
  const to = width < 60 ? Math.max(12, Math.floor(width / 4)) : Math.max(14, Math.min(36, Math.floor(width / 4)))
  const status = width < 60 ? 6 : 10
  const summary = Math.max(6, width - marker - time - badge - (to + 1) - status)
  return { marker, time, badge, short, to, summary, status }
}

/** One message row; memoised so a status change repaints only its own row's tree. */
const MessageRow = memo(function MessageRow({
  message,
  selected,
  columns,
  now,
}: {
  message: CapturedMessage
  selected: boolean
  columns: OutboxColumns
  now: number
}) {
  const badge = CHANNEL_BADGES[message.channel]
  const label = columns.short ? badge.short : badge.label
  const status = columns.status < 10 ? SHORT_STATUS[message.status] : message.status
  // A reply is listed by who sent it, and a STOP or START says so before its text.
  const inbound = message.direction === 'inbound'
  const party = inbound ? `← ${senderOf(message) ?? message.to}` : message.to
  const keyword = keywordLabel(message)
  return (
    <Box
      width={columns.marker + columns.time + columns.badge + columns.to + 1 + columns.summary + columns.status}
      height={1}
      backgroundColor={selected ? 'blackBright' : undefined}
    >
      <Text color="cyan" bold>
        {selected ? '› ' : '  '}
      </Text>
      {columns.time > 0 ? (
        <Text dimColor={!selected}>{padCells(listTime(message.created_at, now), columns.time)}</Text>
      ) : null}
      <Text backgroundColor={badge.background} color={badge.foreground} bold>{` ${label} `}</Text>
      <Text>{' '.repeat(columns.badge - label.length - 2)}</Text>
      <Text bold={selected} color={inbound ? 'cyan' : undefined}>
        {padCells(party, columns.to)}{' '}
      </Text>
      <Text bold={selected || keyword !== null} color={keyword ? 'red' : undefined}>
        {padCells(
          keyword ? `${summaryOf(message)} · ${keyword.replace(/^\S+ \((.*)\)$/, '$1')}` : summaryOf(message),
          columns.summary - 1,
        )}{' '}
      </Text>
      <Text color={STATUS_COLOURS[message.status]} bold={selected}>
        {padCells(status, columns.status)}
      </Text>
    </Box>
  )
})

/**
 * The outbox, newest first: only `visible` rows are rendered (the caller windows the list), so a
 * 10,000-message outbox costs what a screenful costs. Every cell is cut to its column by
 * `cli-truncate` before Ink sees it, however long the value.
 */
export function OutboxList({
  visible,
  selectedId,
  width,
  height,
  total,
  emptyText,
  now,
}: {
  visible: readonly CapturedMessage[]
  selectedId: string | undefined
  width: number
  height: number
  total: number
  emptyText: string
  /** The sandbox clock, to show a date on messages from another day. */
  now: number
}) {
  const dated = visible.some((m) => !sameDay(m.created_at, now))
  const columns = outboxColumns(width, dated)
  // Each heading is cut one cell short of its column, so a full label never runs into the next.
  const heading = [
    columns.time > 0 ? `${padCells('TIME', columns.time - 1)} ` : '',
    padCells(columns.short ? ' CH' : ' CHANNEL', columns.badge),
    padCells('TO', columns.to + 1),
    `${padCells(width < 60 ? 'SUMMARY' : 'SUBJECT / TEXT / TEMPLATE', columns.summary - 1)} `,
    'STATUS',
  ]
  return (
    <Box flexDirection="column" width={width} height={height + 1} overflow="hidden">
      <Text bold wrap="truncate-end">{`  ${heading.join('')}`}</Text>
      {total === 0 ? (
        <Box paddingLeft={2} flexDirection="column">
          {emptyText.split('\n').map((line, i) => (
            <Text key={i} dimColor wrap="truncate-end">
              {fitCells(line, width - 2)}
            </Text>
          ))}
        </Box>
      ) : (
        visible.map((message) => (
          <MessageRow
            key={message.message_id}
            message={message}
            selected={message.message_id === selectedId}
            columns={columns}
            now={now}
          />
        ))
      )}
    </Box>
  )
}
