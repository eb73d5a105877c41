import { Box, Text } from 'ink'
import { useEffect, useMemo, useState } from 'react'
import { displayKey } from '../../../domain/plans.js'
import type { SandboxState } from '../../../domain/sandbox.js'
import { CHANNELS, type CapturedMessage } from '../../../contract/captured-message.js'
import { fitCells } from '../cells.js'
import { clockTime, grouped, offsetText, type Colour } from '../format.js'
import { CHANNEL_BADGES } from '../channels/index.js'
import type { Tab } from '../keys.js'
import { countByChannel } from '../outbox-filter.js'

/** At most this many rows of key chips; more keys are summarised as "+N more". */
const MAX_KEY_ROWS = 2
const CHIP_GAP = '   '

interface KeyChip {
  /** The key itself: React's key only, never shown. */
  id: string
  /** The key as shown: {@link displayKey}. */
  key: string
  plan: string
  usage: string
  usageColour: Colour
  length: number
}

/** Packs key chips into rows that fit `width`, so three keys take one row on a wide terminal and two at 80 columns. */
function packChips(chips: KeyChip[], width: number): { rows: KeyChip[][]; hidden: number } {
  const rows: KeyChip[][] = []
  let row: KeyChip[] = []
  let used = 0
  for (const chip of chips) {
    const needed = row.length === 0 ? chip.length : used + CHIP_GAP.length + chip.length
    if (row.length > 0 && needed > width) {
      rows.push(row)
      row = [chip]
      used = chip.length
    } else {
      row.push(chip)
      used = needed
    }
  }
  if (row.length > 0) rows.push(row)
  const shown = rows.slice(0, MAX_KEY_ROWS)
  const hidden = rows.slice(MAX_KEY_ROWS).reduce((n, r) => n + r.length, 0)
  return { rows: shown, hidden }
}

/** Re-renders every `ms` so rolling-window use, faults and the clock show without requests. */
function useTick(ms: number): void {
  const [, setTick] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms)
    return () => clearInterval(timer)
  }, [ms])
}

/**
 * Columns the status row needs in full: every channel's badge with a one-digit count, then the
 * last message's time. Read off the badges, so a new channel widens it (a fourth one made the
 * time vanish at 60 columns, silently).
 */
export const FULL_STATUS_WIDTH =
  CHANNELS.reduce((sum, channel) => sum + `${CHANNEL_BADGES[channel].label} 0   `.length, 0) +
  'last message 00:00:00'.length

/**
 * The header's layout for a terminal size: compact (two rows, short labels) below 60 columns or 20
 * rows, or when the status row would not fit in full ({@link FULL_STATUS_WIDTH}).
 */
export function headerLayout(width: number, rows: number): { compact: boolean } {
  return { compact: width < Math.max(60, FULL_STATUS_WIDTH) || rows < 20 }
}

/** Rows the header takes for a sandbox at a size: the layout reserves them before sizing the list. */
export function headerHeight(sandbox: SandboxState, width: number, rows: number): number {
  if (headerLayout(width, rows).compact) return 2
  const { rows: chipRows } = packChips(chips(sandbox), width)
  return 1 + chipRows.length + (sandbox.adminToken ? 1 : 0) + 1
}

function chips(sandbox: SandboxState): KeyChip[] {
  return sandbox.keyUsage().map((k) => {
    const shown = displayKey(k.key)
    const usage = `${grouped(k.used)}/${grouped(k.limit)} per min`
    const ratio = k.used / k.limit
    return {
      id: k.key,
      key: shown,
      plan: k.planName,
      usage,
      usageColour: ratio >= 1 ? 'red' : ratio >= 0.8 ? 'yellow' : 'green',
      length: shown.length + 2 + k.planName.length + 2 + usage.length,
    }
  })
}

/** What the status row flags besides counts: faults armed, messages evicted, the clock moved or frozen. */
function alerts(sandbox: SandboxState, compact: boolean): Array<{ text: string; colour: Colour; bold?: boolean }> {
  const out: Array<{ text: string; colour: Colour; bold?: boolean }> = []
  const faults = sandbox.faults.size
  if (faults > 0)
    out.push({
      text: compact ? `● ${faults}F` : `● ${faults} fault${faults === 1 ? '' : 's'} armed`,
      colour: 'red',
      bold: true,
    })
  const evicted = sandbox.outbox.evicted
  if (evicted > 0)
    out.push({ text: compact ? `${grouped(evicted)} ev` : `${grouped(evicted)} evicted`, colour: 'yellow' })
  const clock = sandbox.clock.state()
  // A clock the user supplied (`now`) is theirs to move; only the sandbox's own moved or frozen clock is flagged.
  if (clock.controllable && (clock.frozen || Math.abs(clock.offset_ms) >= 1_000)) {
    const offset = Math.abs(clock.offset_ms) >= 1_000 ? offsetText(clock.offset_ms) : ''
    out.push({
      text: compact
        ? `⏱${clock.frozen ? '❚❚' : ''}${offset}`
        : `clock ${[offset, clock.frozen ? 'frozen' : ''].filter(Boolean).join(' ')}`,
      colour: 'magenta' as Colour,
    })
  }
  return out
}

/**
 * Where to point apps, each key's plan and live rate-limit use, counts per channel, the time of
 * the last message, and what is out of the ordinary: faults armed (red), evictions, a moved or
 * frozen clock. Compact (two rows, short labels) on small terminals. Ticks once a second.
 */
export function Header({
  sandbox,
  apiUrl,
  inboxUrl,
  messages,
  tab,
  width,
  rows: terminalRows,
  filterLabel,
}: {
  sandbox: SandboxState
  apiUrl: string
  /** The web inbox, shown after the API URL when the row has room for all of it. */
  inboxUrl?: string
  messages: readonly CapturedMessage[]
  tab: Tab
  width: number
  rows: number
  filterLabel: string
}) {
  useTick(1_000)
  const { compact } = headerLayout(width, terminalRows)
  const { rows, hidden } = compact ? { rows: [], hidden: 0 } : packChips(chips(sandbox), width)
  return (
    <Box flexDirection="column" width={width}>
      <TitleRow
        version={sandbox.version}
        apiUrl={apiUrl}
        inboxUrl={inboxUrl}
        tab={tab}
        width={width}
        compact={compact}
      />
      {rows.map((row, i) => (
        <Text key={i} wrap="truncate-end">
          {row.map((chip, j) => (
            <Text key={chip.id}>
              {j > 0 ? CHIP_GAP : ''}
              <Text bold>{chip.key}</Text>
              {'  '}
              <Text color="cyan">{chip.plan}</Text>
              {'  '}
              <Text color={chip.usageColour}>{chip.usage}</Text>
            </Text>
          ))}
          {hidden > 0 && i === rows.length - 1 ? (
            <Text dimColor>{`${CHIP_GAP}+${hidden} more (sendbox keys)`}</Text>
          ) : null}
        </Text>
      ))}
      {sandbox.adminToken && !compact ? (
        <Text wrap="truncate-end" color="yellow">{`/__sandbox needs the admin token ${sandbox.adminToken}`}</Text>
      ) : null}
      <StatusRow sandbox={sandbox} messages={messages} width={width} compact={compact} filterLabel={filterLabel} />
    </Box>
  )
}

/** `sendbox 0.1.0  API http://…/v1  Inbox …` and the tabs. */
function TitleRow({
  version,
  apiUrl,
  inboxUrl,
  tab,
  width,
  compact,
}: {
  version: string
  apiUrl: string
  inboxUrl?: string
  tab: Tab
  width: number
  compact: boolean
}) {
  const tabs: Array<[Tab, string]> = compact
    ? [
        ['outbox', 'Out'],
        ['requests', 'Req'],
      ]
    : [
        ['outbox', 'Outbox'],
        ['requests', 'Requests'],
      ]
  const title = compact ? '' : ` ${version}  API `
  const tabsWidth = tabs.reduce((n, [, label]) => n + label.length + 2, 0)
  const inbox = inboxUrl && !compact ? `  Inbox ${inboxUrl}` : ''
  const showInbox = inbox !== '' && 8 + title.length + apiUrl.length + inbox.length <= width - tabsWidth
  return (
    <Box width={width}>
      <Box width={width - tabsWidth} flexShrink={0}>
        <Text wrap="truncate-end">
          <Text bold color="cyan">
            sendbox
          </Text>
          <Text dimColor>{title || ' '}</Text>
          <Text bold>{fitCells(apiUrl, Math.max(0, width - tabsWidth - 8 - title.length))}</Text>
          {showInbox ? <Text dimColor>{inbox}</Text> : null}
        </Text>
      </Box>
      <Box flexShrink={0}>
        {tabs.map(([id, label]) => (
          <Text key={id} inverse={tab === id} bold={tab === id} dimColor={tab !== id}>{` ${label} `}</Text>
        ))}
      </Box>
    </Box>
  )
}

/** What is out of the ordinary, the counts per channel, the last message's time, and the list's filters. */
function StatusRow({
  sandbox,
  messages,
  width,
  compact,
  filterLabel,
}: {
  sandbox: SandboxState
  messages: readonly CapturedMessage[]
  width: number
  compact: boolean
  filterLabel: string
}) {
  const counts = useMemo(() => countByChannel(messages), [messages])
  const last = messages[0]
  const flags = alerts(sandbox, compact)
  return (
    <Box width={width}>
      <Box flexGrow={1} flexShrink={1}>
        <Text wrap="truncate-end">
          {flags.map((flag, i) => (
            <Text key={i}>
              <Text color={flag.colour} bold={flag.bold}>
                {flag.text}
              </Text>
              <Text>{compact ? ' ' : '   '}</Text>
            </Text>
          ))}
          {CHANNELS.map((channel) => (
            <Text key={channel}>
              <Text color={CHANNEL_BADGES[channel].background} bold>
                {compact ? CHANNEL_BADGES[channel].short : CHANNEL_BADGES[channel].label}
              </Text>
              <Text>{` ${grouped(counts[channel])}${compact ? ' ' : '   '}`}</Text>
            </Text>
          ))}
          {compact ? null : <Text dimColor>last message </Text>}
          {compact ? null : <Text>{last ? clockTime(last.created_at) : '—'}</Text>}
        </Text>
      </Box>
      {filterLabel ? (
        <Box flexShrink={0} marginLeft={1}>
          <Text color="yellow">{filterLabel}</Text>
        </Box>
      ) : null}
    </Box>
  )
}
