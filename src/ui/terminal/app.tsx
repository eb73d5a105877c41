import { Box, Text, useStdout, type Key } from 'ink'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { SandboxState } from '../../domain/sandbox.js'
import type { CapturedMessage } from '../../contract/captured-message.js'
import type { JournalEntry } from '../../contract/journal.js'
import { fitCells, printable } from './cells.js'
import { Footer, footerHeight, type FooterContent } from './components/footer.js'
import { Header, headerHeight } from './components/header.js'
import { OutboxList } from './components/outbox-list.js'
import { RequestsList } from './components/requests-list.js'
import { StyledLines } from './components/styled-lines.js'
import type { ConsoleCapture } from './console-capture.js'
import { grouped } from './format.js'
import {
  accountLabels,
  accountText,
  messageKeyFacts,
  optOutRows,
  optOutsPageRows,
  replyFooter,
  requestOf,
  sandboxFacts,
} from './qa-view.js'
import { REQUEST_KIND_LABELS } from './ui-state.js'
import { resetScopeText } from '../../contract/reset-scopes.js'
import { CHANNEL_BADGES, viewOf } from './channels/index.js'
import { helpLines } from './help.js'
import { useSandboxFeed } from './hooks/use-sandbox-feed.js'
import { useSerialInput } from './hooks/use-serial-input.js'
import { useTerminalSize } from './hooks/use-terminal-size.js'
import { useUiState } from './hooks/use-ui-state.js'
import { pageTop, type KeyContext, type UiState } from './keys.js'
import { footerKeys } from './keymap.js'
import { messageBodySource, messageHeaderRows, previewUrl, requestPage } from './message-page.js'
import { checksField, checksSource } from './checks-page.js'
import { filterOutbox, filterRequests } from './outbox-filter.js'
import { RowSource, RowSourceCache, seg, type StyledLine } from './page.js'
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
/** Wrapping beyond the screen happens in slices of this many milliseconds, between other work (API requests). */
const SLICE_MS = 8
/** How often, at most, background wrapping redraws (the footer's row count): each redraw is a whole Ink frame. */
const PROGRESS_MS = 1_000

function originOf(apiUrl: string): string {
  try {
    return new URL(apiUrl).origin
  } catch {
    return apiUrl.replace(/\/v1\/?$/, '')
  }
}

const NO_ROWS: readonly StyledLine[] = []

/**
 * Wraps the rest of a page in slices while it is on screen, redrawing now and then so the footer's
 * row count grows, and once when it is done.
 */
function useBackgroundFill(source: RowSource | null): void {
  const [, setProgress] = useState(0)
  useEffect(() => {
    if (!source || source.done) return
    let handle: ReturnType<typeof setImmediate> | undefined
    let shown = performance.now()
    const slice = () => {
      source.fill(Infinity, SLICE_MS)
      const now = performance.now()
      if (source.done || now - shown >= PROGRESS_MS) {
        shown = now
        setProgress((n) => n + 1)
      }
      if (!source.done) handle = setImmediate(slice)
    }
    handle = setImmediate(slice)
    return () => {
      if (handle) clearImmediate(handle)
    }
  }, [source])
}

/** The footer's notice, if any: which link to copy, the reducer's notice, or server output printed while the UI ran. */
function noticeOf(state: UiState, unseenConsole: number, consoleLines: readonly string[]): FooterContent | null {
  if (state.confirm || state.searching || state.replying) return null
  if (state.pendingCopyLink) return { kind: 'notice', tone: 'ok', text: 'Copy which link? 1–9 (any other key cancels)' }
  if (state.notice) return { kind: 'notice', ...state.notice }
  if (unseenConsole > 0 && consoleLines.length > 0) {
    return {
      kind: 'notice',
      tone: 'error',
      text: `⚠ ${unseenConsole} server message${unseenConsole === 1 ? '' : 's'} (printed again on exit): ${printable(consoleLines[consoleLines.length - 1])}`,
    }
  }
  return null
}

/** What a confirmation asks: a reset lists everything it clears (the contract's RESET_SCOPES). */
function questionOf(confirm: NonNullable<UiState['confirm']>): string {
  if (confirm.kind === 'clear') return `Clear all ${grouped(confirm.count)} messages from the outbox?`
  if (confirm.kind === 'reset') return `Reset the sandbox? Clears ${resetScopeText()}.`
  return `Delete ${confirm.id} (to ${printable(confirm.to)})?`
}

/** The footer: a confirmation, the search line, the notice, or the keys of what is on screen. */
function footerOf(
  state: UiState,
  notice: FooterContent | null,
  pagePosition: string | undefined,
  listPosition: string | undefined,
): FooterContent {
  if (state.confirm) return { kind: 'confirm', question: questionOf(state.confirm) }
  if (state.searching) return { kind: 'search', query: state.view.query }
  if (state.replying) return replyFooter(state.replying)
  if (notice) return notice
  switch (state.page.kind) {
    case 'help':
      return { kind: 'keys', keys: footerKeys('help'), aside: pagePosition }
    case 'message':
      return { kind: 'keys', keys: footerKeys('message'), aside: pagePosition }
    case 'request':
      return { kind: 'keys', keys: footerKeys('request'), aside: pagePosition }
    case 'opt-outs':
      return { kind: 'keys', keys: footerKeys('opt-outs') }
    default:
      return { kind: 'keys', keys: footerKeys(state.tab === 'outbox' ? 'outbox' : 'requests'), aside: listPosition }
  }
}

/** What the header says of the list's filters: `SMS only · search "otp" · 3 of 120`. */
function filterLabelOf(
  state: UiState,
  shown: number,
  all: number,
  width: number,
  labels: ReadonlyMap<string, string>,
): string {
  const parts: string[] = []
  const { view } = state
  if (state.tab === 'outbox') {
    if (view.account) parts.push(`account ${accountText(view.account, labels)}`)
    if (view.channel) parts.push(`${CHANNEL_BADGES[view.channel].label} only`)
    if (view.status) parts.push(view.status)
    if (view.query) parts.push(`search "${view.query}"`)
    if (parts.length > 0) parts.push(`${grouped(shown)} of ${grouped(all)}`)
  } else if (state.errorsOnly || state.requestKind !== 'all') {
    if (state.requestKind !== 'all') parts.push(`${REQUEST_KIND_LABELS[state.requestKind]} only`)
    if (state.errorsOnly) parts.push('errors only')
    parts.push(`${grouped(shown)} of ${grouped(all)}`)
  }
  return fitCells(parts.join(' · '), Math.floor(width * 0.6))
}

/** A page's rows: short ones built on each render (`head`), then a cached source wrapped on demand (`body`, long). */
interface PageRows {
  head: readonly StyledLine[]
  body: RowSource | null
}

function messagePageRows(
  sandbox: SandboxState,
  opened: CapturedMessage | undefined,
  requests: readonly JournalEntry[],
  state: UiState,
  width: number,
  now: number,
  origin: string,
  cache: RowSourceCache,
): PageRows {
  if (!opened)
    return {
      head: [
        [
          seg('This message is no longer in the outbox (deleted, cleared, reset or evicted). Esc goes back.', {
            color: 'yellow',
          }),
        ],
      ],
      body: null,
    }
  const preview = viewOf(opened).htmlPreview
    ? previewUrl(origin, opened.message_id, sandbox.outbox.previewToken(opened.message_id))
    : null
  const source = state.source
  const report = sandbox.checkReports.peek(opened.message_id)
  const head = messageHeaderRows(opened, width, now, preview, source, requestOf(opened, requests))
  head.splice(1, 0, ...checksField(report, width))
  return {
    head,
    body: state.checks
      ? cache.get(`checks:${opened.message_id}:${width}:${report?.checked_at ?? 'pending'}`, () =>
          checksSource(report, width),
        )
      : cache.get(`msg:${opened.message_id}:${width}:${source}`, () => messageBodySource(opened, width, source)),
  }
}

function requestPageRows(
  sandbox: SandboxState,
  entry: JournalEntry | undefined,
  width: number,
  now: number,
  cache: RowSourceCache,
): PageRows {
  if (!entry)
    return {
      head: [[seg('This request is no longer in the journal. Esc goes back.', { color: 'yellow' })]],
      body: null,
    }
  return {
    head: NO_ROWS,
    body: cache.get(`req:${entry.id}:${width}`, () =>
      requestPage(
        entry,
        width,
        now,
        entry.kind === 'webhook' ? sandbox.webhooks?.attempts.byJournalId(entry.id) : undefined,
        accountLabels(sandbox),
      ),
    ),
  }
}

/**
 * The page on screen (help, a message, a request): its rows, where it is scrolled to, and the
 * rest wrapped in the background while it shows.
 */
function usePage(p: {
  sandbox: SandboxState
  state: UiState
  messages: readonly CapturedMessage[]
  requests: readonly JournalEntry[]
  width: number
  bodyHeight: number
  origin: string
  cache: RowSourceCache
  now: number
  visible: boolean
}) {
  const { sandbox, state, messages, requests, width, bodyHeight, origin, cache, now } = p
  const page = state.page
  const opened = useMemo(
    () => (page.kind === 'message' ? messages.find((m) => m.message_id === page.id) : undefined),
    [messages, page],
  )
  const entry = useMemo(
    () => (page.kind === 'request' ? requests.find((e) => e.id === page.id) : undefined),
    [requests, page],
  )
  const { head, body }: PageRows =
    page.kind === 'help'
      ? { head: [...sandboxFacts(sandbox, width), ...helpLines(width)], body: null }
      : page.kind === 'opt-outs'
        ? { head: optOutsPageRows(optOutRows(sandbox), state.optOutIndex, width, accountLabels(sandbox)), body: null }
        : page.kind === 'message'
          ? messagePageRows(sandbox, opened, requests, state, width, now, origin, cache)
          : page.kind === 'request'
            ? requestPageRows(sandbox, entry, width, now, cache)
            : { head: NO_ROWS, body: null }
  const onPage = page.kind !== 'list'
  // What is on screen is wrapped now; the rest in slices (useBackgroundFill).
  if (body && onPage)
    body.fill(state.scroll === Infinity ? body.rows.length + bodyHeight : state.scroll + bodyHeight - head.length + 1)
  useBackgroundFill(onPage && p.visible ? body : null)
  const totalRows = head.length + (body ? body.rows.length : 0)
  const rowAt = useCallback((i: number) => (i < head.length ? head[i] : body!.rows[i - head.length]), [head, body])
  return {
    opened,
    entry,
    head,
    totalRows,
    pageDone: !body || body.done,
    top: pageTop(state.scroll, totalRows, bodyHeight),
    rowAt,
    linksRow: body?.anchors.get('links'),
  }
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
  const filtered = useMemo(() => filterOutbox(messages, state.view), [messages, state.view])
  const journal = useMemo(
    () => filterRequests(requests, state.errorsOnly, state.requestKind),
    [requests, state.errorsOnly, state.requestKind],
  )
  const labels = accountLabels(sandbox)
  const frameHeight = rows - 1
  // A notice (a URL to open by hand) may take a few rows of the footer; the body gives them up.
  const notice = noticeOf(state, (captured?.count() ?? 0) - state.consoleSeen, consoleLines)
  const footerRows = state.confirm
    ? footerHeight({ kind: 'confirm', question: questionOf(state.confirm) }, width)
    : notice
      ? footerHeight(notice, width)
      : 1
  const bodyHeight = Math.max(2, frameHeight - headerHeight(sandbox, width, rows) - footerRows)
  const listRows = bodyHeight - 1
  const outboxWindow = useMemo(
    () => windowOf(state.outbox, filtered, messageIdOf, listRows),
    [state.outbox, filtered, listRows],
  )
  const requestsWindow = useMemo(
    () => windowOf(state.requests, journal, requestIdOf, listRows),
    [state.requests, journal, listRows],
  )
  const onPage = state.page.kind !== 'list'
  const { opened, entry, head, totalRows, pageDone, top, rowAt, linksRow } = usePage({
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
  const ctxRef = useRef<KeyContext | null>(null)
  ctxRef.current = {
    outbox: outboxWindow,
    requests: requestsWindow,
    page: onPage
      ? {
          rows: totalRows,
          height: bodyHeight,
          done: pageDone,
          linksRow: linksRow === undefined ? undefined : head.length + linksRow - 2,
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
    requestMessageId: entry?.message_id ?? undefined,
    accounts: sandbox.accounts(),
    optOuts: state.page.kind === 'opt-outs' ? optOutRows(sandbox) : [],
    outboxSize: sandbox.outbox.size,
    consoleCount: captured?.count() ?? 0,
  }
  const onKey = useCallback(
    (input: string, key: Key) => dispatch({ type: 'key', input, key }, ctxRef.current!),
    [dispatch],
  )
  useSerialInput(onKey, state.searching)
  if (tooSmall)
    return (
      <Text wrap="truncate-end">
        {fitCells(`terminal too small (${width}×${rows}, needs ${MIN_COLUMNS}×${MIN_ROWS})`, Math.max(1, width))}
      </Text>
    )
  const listWindow = state.tab === 'outbox' ? outboxWindow : requestsWindow
  const position =
    listWindow.length > 0 ? `${grouped(listWindow.index + 1)} of ${grouped(listWindow.length)}` : undefined
  const pagePosition =
    totalRows > bodyHeight || !pageDone
      ? `${grouped(top + 1)}–${grouped(Math.min(top + bodyHeight, totalRows))} of ${grouped(totalRows)}${pageDone ? '' : '+'}`
      : undefined
  const filterLabel =
    state.tab === 'outbox'
      ? filterLabelOf(state, filtered.length, messages.length, width, labels)
      : filterLabelOf(state, journal.length, requests.length, width, labels)
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
      <Box height={bodyHeight} flexDirection="column" overflow="hidden">
        {onPage ? (
          <StyledLines rowAt={rowAt} total={totalRows} top={top} height={bodyHeight} />
        ) : (
          <ListBody
            tab={state.tab}
            filtered={filtered}
            journal={journal}
            outboxWindow={outboxWindow}
            requestsWindow={requestsWindow}
            listRows={listRows}
            width={width}
            now={now}
            emptyOutbox={
              messages.length === 0
                ? `No messages yet. Point your app at ${apiUrl} and send one.\nWeb inbox: ${origin}/__sandbox/ui/`
                : 'No message matches. Esc clears the filters.'
            }
            emptyJournal={
              requests.length === 0
                ? 'No requests yet. Every call to the API shows up here, live.'
                : 'Nothing matches. Esc shows every request.'
            }
          />
        )}
      </Box>
      <Footer content={footerOf(state, notice, pagePosition, position)} width={width} />
    </Box>
  )
}

/** The list on screen: the outbox or the request journal, the selection's window of it. */
function ListBody(props: {
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
}) {
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
