import { Box, Text } from 'ink'
import { useEffect, useMemo, useState } from 'react'
import type { CapturedMessage, Channel } from '../../domain/outbox.js'
import { displayKey } from '../../domain/plans.js'
import type { SandboxState } from '../../domain/sandbox.js'
import { CHANNEL_BADGES, clockTime, grouped, type Colour } from '../format.js'
import { countByChannel } from '../outbox-filter.js'

/** The two lists Tab switches between. */
export type Tab = 'outbox' | 'requests'

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

/** Re-renders every `ms` so rolling-window use decays on screen even when no request arrives. */
function useTick(ms: number): void {
  const [, setTick] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms)
    return () => clearInterval(timer)
  }, [ms])
}

/** Rows the header takes for a sandbox at a width: the layout reserves them before sizing the list. */
export function headerHeight(sandbox: SandboxState, width: number): number {
  const { rows } = packChips(chips(sandbox), width)
  return 1 + rows.length + (sandbox.adminToken ? 1 : 0) + 1
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

/**
 * Where to point apps, each key's plan and live rate-limit use, counts per channel and the time
 * of the last message. Ticks once a second so the rolling window's decay shows without requests.
 */
export function Header({ sandbox, apiUrl, messages, tab, width, filterLabel }: {
  sandbox: SandboxState
  apiUrl: string
  messages: readonly CapturedMessage[]
  tab: Tab
  width: number
  filterLabel: string
}) {
  // Rendered again with every feed update (each request moves a key's use), and once a second.
  useTick(1_000)
  const { rows, hidden } = packChips(chips(sandbox), width)
  const counts = useMemo(() => countByChannel(messages), [messages])
  const last = messages[0]
  const tabs: Array<[Tab, string]> = [['outbox', 'Outbox'], ['requests', 'Requests']]
  return (
    <Box flexDirection="column" width={width}>
      <Box width={width}>
        <Box flexGrow={1} flexShrink={1}>
          <Text wrap="truncate-end">
            <Text bold color="cyan">sendbox</Text>
            <Text dimColor> {sandbox.version}  API </Text>
            <Text bold>{apiUrl}</Text>
          </Text>
        </Box>
        <Box flexShrink={0}>
          {tabs.map(([id, label]) => (
            <Text key={id} inverse={tab === id} bold={tab === id} dimColor={tab !== id}>{` ${label} `}</Text>
          ))}
        </Box>
      </Box>
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
          {hidden > 0 && i === rows.length - 1 ? <Text dimColor>{`${CHIP_GAP}+${hidden} more (sendbox keys)`}</Text> : null}
        </Text>
      ))}
      {sandbox.adminToken ? (
        <Text wrap="truncate-end" color="yellow">{`/__sandbox needs the admin token ${sandbox.adminToken}`}</Text>
      ) : null}
      <Box width={width}>
        <Box flexGrow={1} flexShrink={1}>
          <Text wrap="truncate-end">
            {(Object.keys(CHANNEL_BADGES) as Channel[]).map((channel) => (
              <Text key={channel}>
                <Text color={CHANNEL_BADGES[channel].background} bold>{CHANNEL_BADGES[channel].label}</Text>
                <Text>{` ${grouped(counts[channel])}   `}</Text>
              </Text>
            ))}
            <Text dimColor>last message </Text>
            <Text>{last ? clockTime(last.created_at) : '—'}</Text>
          </Text>
        </Box>
        {filterLabel ? (
          <Box flexShrink={0} marginLeft={1}>
            <Text color="yellow">{filterLabel}</Text>
          </Box>
        ) : null}
      </Box>
    </Box>
  )
}
