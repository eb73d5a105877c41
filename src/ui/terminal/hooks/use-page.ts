import { useCallback, useEffect, useMemo, useState } from 'react'
import type { SandboxState } from '../../../domain/sandbox.js'
import type { CapturedMessage } from '../../../contract/captured-message.js'
import type { JournalEntry } from '../../../contract/journal.js'
import { accountLabels, optOutRows, optOutsPageRows, requestOf, sandboxFacts } from '../qa-view.js'
import { viewOf } from '../channels/index.js'
import { helpLines } from '../help.js'
import { pageTop, type UiState } from '../keys.js'
import { messageBodySource, messageHeaderRows, previewUrl, requestPage } from '../message-page.js'
import { checksField, checksSource } from '../checks-page.js'
import { RowSource, RowSourceCache, seg, type StyledLine } from '../page.js'

/** Wrapping beyond the screen happens in slices of this many milliseconds, between other work (API requests). */
const SLICE_MS = 8
/** How often, at most, background wrapping redraws (the footer's row count): each redraw is a whole Ink frame. */
const PROGRESS_MS = 1_000

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
export function usePage(p: {
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
