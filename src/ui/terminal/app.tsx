import { Box, Text, useStdout, type Key } from 'ink'
import { useCallback, useMemo, useRef } from 'react'
import type { SandboxState } from '../../domain/sandbox.js'
import type { CapturedMessage } from '../../contract/captured-message.js'
import type { JournalEntry } from '../../contract/journal.js'
import { fitCells } from './cells.js'
import { Footer, footerHeight, type FooterContent } from './components/footer.js'
import { Header, headerHeight } from './components/header.js'
import { OutboxList } from './components/outbox-list.js'
import { RequestsList } from './components/requests-list.js'
import { StyledLines } from './components/styled-lines.js'
import type { ConsoleCapture } from './console-capture.js'
import { filterLabelOf, footerOf, listPositionOf, noticeOf, pagePositionOf, questionOf } from './frame-text.js'
import { accountLabels, messageKeyFacts, optOutRows } from './qa-view.js'
import { viewOf } from './channels/index.js'
import { usePage } from './hooks/use-page.js'
import { useSandboxFeed } from './hooks/use-sandbox-feed.js'
import { useSerialInput } from './hooks/use-serial-input.js'
import { useTerminalSize } from './hooks/use-terminal-size.js'
import { useUiState } from './hooks/use-ui-state.js'
import type { KeyContext, UiState } from './keys.js'
import { filterOutbox, filterRequests } from './outbox-filter.js'
import { RowSourceCache } from './page.js'
import { windowOf, type ListWindow } from './selection.js'
import { terminalSystem, type UiSystem } from './system.js'

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
  /** Browser and clipboard; defaults to the platform's browser command and OSC 52 on Ink's stdout. */
  system?: UiSystem
}

/** The smallest terminal the layout is made for; below it, one line says so. */
export const MIN_COLUMNS = 40
export const MIN_ROWS = 10

const messageIdOf = (m: CapturedMessage) => m.message_id
const requestIdOf = (e: JournalEntry) => String(e.id)

function originOf(apiUrl: string): string {
  try {
    return new URL(apiUrl).origin
  } catch {
    return apiUrl.replace(/\/v1\/?$/, '')
  }
}

/** The frame's heights: a notice (a URL to open by hand) or a question may take a few rows of the footer; the body gives them up. */
function layoutOf(sandbox: SandboxState, state: UiState, notice: FooterContent | null, width: number, rows: number) {
  const frameHeight = rows - 1
  const footerRows = state.confirm
    ? footerHeight({ kind: 'confirm', question: questionOf(state.confirm) }, width)
    : notice
      ? footerHeight(notice, width)
      : 1
  const bodyHeight = Math.max(2, frameHeight - headerHeight(sandbox, width, rows) - footerRows)
  return { frameHeight, bodyHeight, listRows: bodyHeight - 1 }
}

/** The outbox and the journal as the filters leave them, and the selection's window of each, `listRows` high. */
function useLists(
  messages: readonly CapturedMessage[],
  requests: readonly JournalEntry[],
  state: UiState,
  listRows: number,
) {
  const filtered = useMemo(() => filterOutbox(messages, state.view), [messages, state.view])
  const journal = useMemo(
    () => filterRequests(requests, state.errorsOnly, state.requestKind),
    [requests, state.errorsOnly, state.requestKind],
  )
  const outboxWindow = useMemo(
    () => windowOf(state.outbox, filtered, messageIdOf, listRows),
    [state.outbox, filtered, listRows],
  )
  const requestsWindow = useMemo(
    () => windowOf(state.requests, journal, requestIdOf, listRows),
    [state.requests, journal, listRows],
  )
  return { filtered, journal, outboxWindow, requestsWindow }
}

type Lists = ReturnType<typeof useLists>
type OnScreenPage = ReturnType<typeof usePage>

/** What the reducer needs to know of the screen to act on a key. */
function keyContextOf(
  sandbox: SandboxState,
  state: UiState,
  lists: Lists,
  page: OnScreenPage,
  requests: readonly JournalEntry[],
  bodyHeight: number,
  consoleCount: number,
): KeyContext {
  const { opened, linksRow } = page
  return {
    outbox: lists.outboxWindow,
    requests: lists.requestsWindow,
    page:
      state.page.kind !== 'list'
        ? {
            rows: page.totalRows,
            height: bodyHeight,
            done: page.pageDone,
            linksRow: linksRow === undefined ? undefined : page.head.length + linksRow - 2,
          }
        : null,
    message: opened
      ? {
          id: opened.message_id,
          to: opened.to,
          channel: opened.channel,
          htmlPreview: viewOf(opened).htmlPreview === true,
          links: opened.links,
          codes: opened.codes,
          ...messageKeyFacts(opened, requests),
        }
      : undefined,
    requestMessageId: page.entry?.message_id ?? undefined,
    accounts: sandbox.accounts(),
    optOuts: state.page.kind === 'opt-outs' ? optOutRows(sandbox) : [],
    outboxSize: sandbox.outbox.size,
    consoleCount,
  }
}

/** Keys, one at a time, to the reducer with the context of the latest render (the screen the user sees). */
function useKeyInput(dispatch: ReturnType<typeof useUiState>['dispatch'], context: KeyContext, searching: boolean) {
  const ctxRef = useRef<KeyContext | null>(null)
  ctxRef.current = context
  const onKey = useCallback(
    (input: string, key: Key) => dispatch({ type: 'key', input, key }, ctxRef.current!),
    [dispatch],
  )
  useSerialInput(onKey, searching)
}

/** What an empty list says: how to send the first message, or how to clear the filters. */
function emptyTextsOf(messages: number, requests: number, apiUrl: string, origin: string) {
  return {
    emptyOutbox:
      messages === 0
        ? `No messages yet. Point your app at ${apiUrl} and send one.\nWeb inbox: ${origin}/__sandbox/ui/`
        : 'No message matches. Esc clears the filters.',
    emptyJournal:
      requests === 0
        ? 'No requests yet. Every call to the API shows up here, live.'
        : 'Nothing matches. Esc shows every request.',
  }
}

/** What the header says of the filters of the list the tab shows. */
function tabFilterLabel(
  sandbox: SandboxState,
  state: UiState,
  lists: Lists,
  messages: number,
  requests: number,
  width: number,
): string {
  const labels = accountLabels(sandbox)
  return state.tab === 'outbox'
    ? filterLabelOf(state, lists.filtered.length, messages, width, labels)
    : filterLabelOf(state, lists.journal.length, requests, width, labels)
}

/** All there is room for below the smallest terminal the layout is made for. */
function TooSmall({ width, rows }: { width: number; rows: number }) {
  return (
    <Text wrap="truncate-end">
      {fitCells(`terminal too small (${width}×${rows}, needs ${MIN_COLUMNS}×${MIN_ROWS})`, Math.max(1, width))}
    </Text>
  )
}

/**
 * The whole terminal UI: header, then the Outbox or Requests list, a message, a request or the
 * help, then a one-row footer. Fills the terminal minus one row (a full-height frame makes Ink
 * clear the screen on every redraw). Keys go through the pure reducer in `keys.ts`; this
 * component only renders its state and runs the effects it asks for.
 */
export function App({ sandbox, apiUrl, onQuit, console: captured, system: givenSystem }: AppProps) {
  const { columns: width, rows } = useTerminalSize()
  const { stdout } = useStdout()
  const system = useMemo(() => givenSystem ?? terminalSystem(stdout), [givenSystem, stdout])
  const { messages, requests, consoleLines } = useSandboxFeed(sandbox, captured)
  const origin = useMemo(() => originOf(apiUrl), [apiUrl])
  const cache = useMemo(() => new RowSourceCache(), [])
  const now = sandbox.now()
  const { state, dispatch } = useUiState({ sandbox, system, origin, onQuit, cache })
  const tooSmall = width < MIN_COLUMNS || rows < MIN_ROWS
  const notice = noticeOf(state, (captured?.count() ?? 0) - state.consoleSeen, consoleLines)
  const { frameHeight, bodyHeight, listRows } = layoutOf(sandbox, state, notice, width, rows)
  const lists = useLists(messages, requests, state, listRows)
  const page = usePage({
    sandbox,
    state,
    messages,
    requests,
    width,
    bodyHeight,
    origin,
    cache,
    now,
    visible: !tooSmall,
  })
  const context = keyContextOf(sandbox, state, lists, page, requests, bodyHeight, captured?.count() ?? 0)
  useKeyInput(dispatch, context, state.searching)
  if (tooSmall) return <TooSmall width={width} rows={rows} />
  const position = listPositionOf(state.tab === 'outbox' ? lists.outboxWindow : lists.requestsWindow)
  const pagePosition = pagePositionOf(page.top, bodyHeight, page.totalRows, page.pageDone)
  const filterLabel = tabFilterLabel(sandbox, state, lists, messages.length, requests.length, width)
  return (
    <Box flexDirection="column" width={width} height={frameHeight} overflow="hidden">
      <Header
        sandbox={sandbox}
        apiUrl={apiUrl}
        inboxUrl={`${origin}/__sandbox/ui/`}
        messages={messages}
        tab={state.tab}
        width={width}
        rows={rows}
        filterLabel={filterLabel}
      />
      <Body
        page={state.page.kind !== 'list' ? page : null}
        height={bodyHeight}
        list={{
          tab: state.tab,
          ...lists,
          listRows,
          width,
          now,
          ...emptyTextsOf(messages.length, requests.length, apiUrl, origin),
        }}
      />
      <Footer content={footerOf(state, notice, pagePosition, position)} width={width} />
    </Box>
  )
}

/** Between header and footer: the page on screen (help, a message, a request), or the list. */
function Body({ page, height, list }: { page: OnScreenPage | null; height: number; list: ListBodyProps }) {
  return (
    <Box height={height} flexDirection="column" overflow="hidden">
      {page ? (
        <StyledLines rowAt={page.rowAt} total={page.totalRows} top={page.top} height={height} />
      ) : (
        <ListBody {...list} />
      )}
    </Box>
  )
}

interface ListBodyProps {
  tab: UiState['tab']
  filtered: readonly CapturedMessage[]
  journal: readonly JournalEntry[]
  outboxWindow: ListWindow
  requestsWindow: ListWindow
  listRows: number
  width: number
  now: number
  emptyOutbox: string
  emptyJournal: string
}

/** The list on screen: the outbox or the request journal, the selection's window of it. */
function ListBody(props: ListBodyProps) {
  const { filtered, journal, outboxWindow, requestsWindow, listRows } = props
  if (props.tab === 'outbox') {
    return (
      <OutboxList
        visible={filtered.slice(outboxWindow.top, outboxWindow.top + listRows)}
        selectedId={filtered[outboxWindow.index]?.message_id}
        width={props.width}
        height={listRows}
        total={filtered.length}
        emptyText={props.emptyOutbox}
        now={props.now}
      />
    )
  }
  return (
    <RequestsList
      visible={journal.slice(requestsWindow.top, requestsWindow.top + listRows)}
      selectedId={journal[requestsWindow.index]?.id}
      width={props.width}
      height={listRows}
      total={journal.length}
      emptyText={props.emptyJournal}
    />
  )
}
