import { Box, type Key } from 'ink'
import { useCallback, useMemo, useRef, useState } from 'react'
import type { JournalEntry } from '../domain/journal.js'
import type { CapturedMessage, Channel } from '../domain/outbox.js'
import type { SandboxState } from '../domain/sandbox.js'
import { Footer, type FooterContent } from './components/footer.js'
import { Header, headerHeight, type Tab } from './components/header.js'
import { OutboxList } from './components/outbox-list.js'
import { RequestsList } from './components/requests-list.js'
import { seg, StyledLines, type StyledLine } from './components/styled-lines.js'
import type { ConsoleCapture } from './console-capture.js'
import { CHANNEL_BADGES, ellipsize, grouped, printable } from './format.js'
import { helpLines } from './help.js'
import { useListSelection } from './hooks/use-list-selection.js'
import { useSerialInput } from './hooks/use-serial-input.js'
import { useTerminalSize } from './hooks/use-terminal-size.js'
import { useSandboxFeed } from './hooks/use-sandbox-feed.js'
import { messageDetailLines } from './message-detail.js'
import { filterOutbox, type OutboxView } from './outbox-filter.js'

/** Props of {@link App}. */
export interface AppProps {
  /** The sandbox whose outbox and journal the UI shows; it never goes through HTTP. */
  sandbox: SandboxState
  /** The base URL apps should use, shown in the header (`http://127.0.0.1:4010/v1`). */
  apiUrl: string
  /** Called once when the user quits (`q`, Ctrl-C): the caller shuts the server down. */
  onQuit: () => void
  /** Console output diverted while the UI runs, shown in the footer. */
  console?: ConsoleCapture
}

const CHANNEL_KEYS: Record<string, Channel | null> = { '1': 'email', '2': 'sms', '3': 'whatsapp', '0': null }
const messageIdOf = (m: CapturedMessage) => m.message_id
const requestIdOf = (e: JournalEntry) => String(e.id)

const LIST_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['↑↓', 'move'], ['⏎', 'open'], ['1 2 3 0', 'channel'], ['/', 'search'], ['c', 'clear'], ['r', 'reset'], ['Tab', 'requests'],
]
const REQUEST_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['↑↓', 'move'], ['Tab', 'outbox'], ['c', 'clear outbox'], ['r', 'reset'],
]
const DETAIL_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['↑↓', 'scroll'], ['Esc', 'back'], ['Tab', 'requests'],
]

function originOf(apiUrl: string): string {
  try {
    return new URL(apiUrl).origin
  } catch {
    return apiUrl.replace(/\/v1\/?$/, '')
  }
}

/**
 * The whole terminal UI: header, then the Outbox or Requests list, a message's detail or the
 * help, then a one-row footer. Fills the terminal minus one row (a full-height frame makes Ink
 * clear the screen on every redraw). All data comes from the sandbox's stores, batched.
 */
export function App({ sandbox, apiUrl, onQuit, console: captured }: AppProps) {
  const { columns: width, rows } = useTerminalSize()
  const { messages, requests, consoleLines } = useSandboxFeed(sandbox, captured)

  const [tab, setTab] = useState<Tab>('outbox')
  const [view, setView] = useState<OutboxView>({ channel: null, query: '' })
  const [searching, setSearching] = useState(false)
  const [openId, setOpenId] = useState<string | null>(null)
  const [scroll, setScroll] = useState(0)
  const [help, setHelp] = useState(false)
  const [confirm, setConfirm] = useState<'clear' | 'reset' | null>(null)
  const [notice, setNotice] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null)
  const [seenConsole, setSeenConsole] = useState(0)
  const quitting = useRef(false)

  const origin = useMemo(() => originOf(apiUrl), [apiUrl])
  const filtered = useMemo(() => filterOutbox(messages, view), [messages, view])
  const frameHeight = rows - 1
  const bodyHeight = Math.max(2, frameHeight - headerHeight(sandbox, width) - 1)
  const listRows = bodyHeight - 1
  const outbox = useListSelection(filtered, messageIdOf, listRows)
  const journal = useListSelection(requests, requestIdOf, listRows)

  const opened = useMemo(() => (openId === null ? undefined : messages.find((m) => m.message_id === openId)), [messages, openId])
  const pageLines: StyledLine[] | null = useMemo(() => {
    if (help) return helpLines()
    if (openId === null || tab !== 'outbox') return null
    if (!opened) return [[seg('This message is no longer in the outbox (cleared, reset or evicted). Esc goes back.', { color: 'yellow' })]]
    return messageDetailLines(opened, width, origin)
  }, [help, openId, tab, opened, width, origin])
  const maxScroll = pageLines ? Math.max(0, pageLines.length - bodyHeight) : 0
  const top = Math.min(scroll, maxScroll)

  const quit = useCallback(() => {
    if (quitting.current) return
    quitting.current = true
    onQuit()
  }, [onQuit])

  const scrollBy = (delta: number) => setScroll(Math.max(0, Math.min(top + delta, maxScroll)))

  const onKey = (input: string, key: Key) => {
    if (key.ctrl && input === 'c') return quit()
    if (confirm) {
      setConfirm(null)
      if (input !== 'y' && input !== 'Y') {
        setNotice({ text: confirm === 'clear' ? 'Kept the outbox.' : 'Did not reset.', tone: 'ok' })
        return
      }
      if (confirm === 'clear') {
        const count = sandbox.outbox.size
        sandbox.outbox.clear()
        setOpenId(null)
        outbox.toTop()
        setNotice({ text: `Outbox cleared (${grouped(count)} messages).`, tone: 'ok' })
      } else {
        setNotice({ text: 'Resetting the sandbox…', tone: 'ok' })
        sandbox.reset().then(
          () => setNotice({ text: 'Sandbox reset: seeded subscribers back; outbox, journal, rate limits and faults cleared.', tone: 'ok' }),
          (error: unknown) => setNotice({ text: `Reset failed: ${(error as Error).message}`, tone: 'error' }),
        )
        setOpenId(null)
        outbox.toTop()
        journal.toTop()
      }
      return
    }
    if (searching) {
      if (key.return) setSearching(false)
      else if (key.escape) {
        setSearching(false)
        setView((v) => ({ ...v, query: '' }))
      } else if (key.backspace || key.delete) setView((v) => ({ ...v, query: [...v.query].slice(0, -1).join('') }))
      else if (input && !key.ctrl && !key.meta) setView((v) => ({ ...v, query: (v.query + printable(input)).slice(0, 200) }))
      outbox.toTop()
      return
    }
    setNotice(null)
    setSeenConsole(captured?.count() ?? 0)
    if (help) {
      if (input === 'q') return quit()
      setHelp(false)
      return
    }
    if (input === 'q') return quit()
    if (input === '?') {
      setHelp(true)
      setScroll(0)
      return
    }
    if (key.tab) {
      setTab((t) => (t === 'outbox' ? 'requests' : 'outbox'))
      setOpenId(null)
      return
    }
    if (input === 'c') return setConfirm('clear')
    if (input === 'r') return setConfirm('reset')
    if (pageLines) {
      if (key.escape || key.backspace || key.delete || key.leftArrow) setOpenId(null)
      else if (key.upArrow || input === 'k') scrollBy(-1)
      else if (key.downArrow || input === 'j') scrollBy(1)
      else if (key.pageUp) scrollBy(-bodyHeight + 1)
      else if (key.pageDown || input === ' ') scrollBy(bodyHeight - 1)
      else if (key.home || input === 'g') setScroll(0)
      else if (key.end || input === 'G') setScroll(maxScroll)
      return
    }
    const list = tab === 'outbox' ? outbox : journal
    if (key.upArrow || input === 'k') list.move(-1)
    else if (key.downArrow || input === 'j') list.move(1)
    else if (key.pageUp) list.move(-listRows)
    else if (key.pageDown) list.move(listRows)
    else if (key.home || input === 'g') list.toTop()
    else if (key.end || input === 'G') list.toBottom()
    if (tab !== 'outbox') return
    if ((key.return || key.rightArrow) && outbox.selected) {
      setOpenId(outbox.selected.message_id)
      setScroll(0)
    } else if (input in CHANNEL_KEYS) {
      setView((v) => ({ ...v, channel: CHANNEL_KEYS[input] }))
      outbox.toTop()
    } else if (input === '/') {
      setSearching(true)
    } else if (key.escape && (view.query !== '' || view.channel !== null)) {
      setView({ channel: null, query: '' })
      outbox.toTop()
    }
  }
  useSerialInput(onKey, searching)

  const filterParts: string[] = []
  if (view.channel) filterParts.push(`${CHANNEL_BADGES[view.channel].label} only`)
  if (view.query) filterParts.push(`search "${view.query}"`)
  if (filterParts.length > 0) filterParts.push(`${grouped(filtered.length)} of ${grouped(messages.length)}`)
  const filterLabel = tab === 'outbox' ? ellipsize(filterParts.join(' · '), Math.floor(width / 2)) : ''

  const unseenConsole = (captured?.count() ?? 0) - seenConsole
  const footer: FooterContent = confirm
    ? {
        kind: 'confirm',
        question: confirm === 'clear'
          ? `Clear all ${grouped(sandbox.outbox.size)} messages from the outbox?`
          : 'Reset the sandbox (subscribers, outbox, journal, rate limits, faults)?',
      }
    : searching
      ? { kind: 'search', query: view.query }
      : notice
        ? { kind: 'notice', ...notice }
        : unseenConsole > 0 && consoleLines.length > 0
          ? { kind: 'notice', tone: 'error', text: `⚠ ${unseenConsole} server message${unseenConsole === 1 ? '' : 's'} (printed again on exit): ${printable(consoleLines[consoleLines.length - 1])}` }
          : help
            ? { kind: 'keys', keys: [['any key', 'closes the help']] }
            : pageLines
              ? { kind: 'keys', keys: DETAIL_KEYS, aside: pageLines.length > bodyHeight ? `${top + 1}–${Math.min(top + bodyHeight, pageLines.length)} of ${pageLines.length}` : undefined }
              : { kind: 'keys', keys: tab === 'outbox' ? LIST_KEYS : REQUEST_KEYS }

  const emptyText = messages.length === 0
    ? `No messages yet. Point your app at ${apiUrl} and send one.`
    : 'No message matches. 0 shows every channel; Esc clears the search.'

  return (
    <Box flexDirection="column" width={width} height={frameHeight} overflow="hidden">
      <Header sandbox={sandbox} apiUrl={apiUrl} messages={messages} tab={tab} width={width} filterLabel={filterLabel} />
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {pageLines ? (
          <StyledLines lines={pageLines} top={top} height={bodyHeight} />
        ) : tab === 'outbox' ? (
          <OutboxList visible={outbox.visible} selectedId={outbox.selected?.message_id} width={width} height={listRows} total={filtered.length} emptyText={emptyText} />
        ) : (
          <RequestsList visible={journal.visible} selectedId={journal.selected?.id} width={width} height={listRows} total={requests.length} />
        )}
      </Box>
      <Footer content={footer} width={width} />
    </Box>
  )
}
