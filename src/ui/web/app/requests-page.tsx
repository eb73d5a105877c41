/** @jsxImportSource preact */
/** The request journal, live: status colours, errors only, and a detail pane. */
import { useEffect, useMemo, useState } from 'preact/hooks'
import { fullTime, prettyBody, shortTime } from './format.js'
import { navigate, useNarrow } from './router.js'
import { requests, useFeed, wantJournal } from './state.js'
import type { JournalEntry } from './types.js'
import { VirtualList } from './virtual-list.js'

function statusClass(status: number): string {
  return status >= 500 ? 'http-5xx' : status >= 400 ? 'http-4xx' : status >= 300 ? 'http-3xx' : 'http-2xx'
}

function EntryDetail({ entry }: { entry: JournalEntry }) {
  const rows: [string, string | null | undefined][] = [
    ['Time', fullTime(entry.at)],
    ['Method', entry.method],
    ['Path', entry.path + (entry.query ? `?${entry.query.replace(/^\?/, '')}` : '')],
    ['Status', String(entry.status)],
    ['Duration', `${entry.duration_ms} ms`],
    ['Error code', entry.error_code],
    ['Error message', entry.error_message],
    ['Fault', entry.fault_id ? `${entry.fault_id} (an injected fault answered; Controls lists the faults)` : null],
    ['Account', entry.account],
    ['Key', entry.key],
  ]
  return (
    <article class="detail" aria-labelledby="entry-title">
      <h2 id="entry-title">
        <span class="muted">#{entry.id}</span> <span class={`http ${statusClass(entry.status)}`}>{entry.status}</span>{' '}
        {entry.kind === 'webhook' ? 'webhook ' : ''}
        {entry.method} {entry.path}
      </h2>
      <dl class="meta">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value ? name === 'Key' ? <code>{value}</code> : value : '—'}</dd>
          </div>
        ))}
      </dl>
      {entry.request_headers ? (
        <>
          <h3>Request headers</h3>
          <pre class="code" tabIndex={0} aria-label="Request headers">
            {Object.entries(entry.request_headers)
              .map(([name, value]) => `${name}: ${value}`)
              .join('\n')}
          </pre>
        </>
      ) : null}
      {entry.message_id ? (
        <p>
          {entry.kind === 'webhook' ? 'About message ' : 'Captured as '}
          <a href={`#/messages/${encodeURIComponent(entry.message_id)}`}>{entry.message_id}</a>
        </p>
      ) : null}
      <h3>Request body</h3>
      <pre class="code" tabIndex={0} aria-label="Request body">
        {prettyBody(entry.request_body) || '(none recorded)'}
      </pre>
      <h3>Response body</h3>
      <pre class="code" tabIndex={0} aria-label="Response body">
        {prettyBody(entry.response_body) || '(none recorded)'}
      </pre>
    </article>
  )
}

/**
 * The selected row of the journal: moved with ↑↓ (j k), opened with Enter or a click, and set by a
 * link to `#/requests/N` (a message's "request #N"), which selects that row, scrolled into view.
 * Held by the entry's id, not its row: new requests arrive at the top and move every row down, and
 * an index taken before the journal had loaded selected the newest row for a frame.
 */
function useSelection(rows: JournalEntry[], openId: string | null) {
  const [chosen, setChosen] = useState<string | null>(openId)
  useEffect(() => {
    if (openId !== null) setChosen(openId)
  }, [openId])
  // Nothing chosen yet: the first row, for the keys. Chosen but not listed (not loaded yet, or
  // filtered out): no row.
  const selected = chosen === null ? 0 : rows.findIndex((e) => String(e.id) === chosen)
  const choose = (index: number) => {
    if (rows[index]) setChosen(String(rows[index].id))
  }
  const activate = (index: number) => {
    choose(index)
    navigate('requests', String(rows[index].id))
  }
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'j') choose(Math.min(selected + 1, rows.length - 1))
    else if (event.key === 'ArrowUp' || event.key === 'k') choose(Math.max(selected - 1, 0))
    else if (event.key === 'Enter' && rows[selected]) activate(selected)
    else return
    event.preventDefault()
  }
  return { selected, activate, onKey }
}

export function RequestsPage({ openId }: { openId: string | null }) {
  useEffect(wantJournal, [])
  const version = useFeed(requests)
  const narrow = useNarrow()
  const [errorsOnly, setErrorsOnly] = useState(false)
  const [kind, setKind] = useState<'' | JournalEntry['kind']>('')
  const rows = useMemo(
    () =>
      requests.rows.filter(
        (e): e is JournalEntry =>
          e !== undefined && (!errorsOnly || e.status >= 400) && (kind === '' || e.kind === kind),
      ),
    [version, errorsOnly, kind],
  )
  const open =
    rows.find((e) => String(e.id) === openId) ??
    requests.rows.find((e) => e !== undefined && String(e.id) === openId) ??
    null
  const { selected, activate, onKey } = useSelection(rows, openId)
  return (
    <div class={`messages-page requests-page${openId ? ' has-detail' : ''}`}>
      {!narrow || !openId ? (
        <section class="list-pane" aria-label="Request journal" onKeyDown={onKey}>
          <RequestFilters
            errorsOnly={errorsOnly}
            setErrorsOnly={setErrorsOnly}
            kind={kind}
            setKind={setKind}
            count={rows.length}
          />
          <VirtualList
            id="request-list"
            label="Requests, newest first"
            count={rows.length}
            rowHeight={narrow ? 52 : 36}
            selected={Math.min(selected, rows.length - 1)}
            onActivate={activate}
            rowKey={(i) => String(rows[i].id)}
            rowClass={(i) => (String(rows[i].id) === openId ? 'open' : '')}
            row={(i) => <RequestRow entry={rows[i]} />}
            empty={requests.loaded ? (errorsOnly ? 'No failed requests.' : 'No requests yet.') : 'Loading…'}
          />
        </section>
      ) : null}
      <RequestPane openId={openId} entry={open} narrow={narrow} />
    </div>
  )
}

function RequestRow({ entry: e }: { entry: JournalEntry }) {
  return (
    <>
      <span class="cell time">
        <span class="req-id">#{e.id}</span> {shortTime(e.at)}
      </span>
      <span class={`cell http ${statusClass(e.status)}`}>{e.status}</span>
      <span class="cell method">{e.kind === 'webhook' ? `${e.method}↗` : e.method}</span>
      <span class="cell path" title={e.path}>
        {e.path}
      </span>
      <span class="cell error-code">{e.error_code ?? ''}</span>
    </>
  )
}

/** The open request's details, or what to do to see some. */
function RequestPane({
  openId,
  entry,
  narrow,
}: {
  openId: string | null
  entry: JournalEntry | null
  narrow: boolean
}) {
  if (!openId) {
    return narrow ? null : (
      <section class="detail-pane empty-detail" aria-label="Request">
        <p>Select a request to see its details.</p>
      </section>
    )
  }
  return (
    <section class="detail-pane" aria-label="Request">
      {narrow ? (
        <a class="back" href="#/requests">
          ← All requests
        </a>
      ) : null}
      {entry ? <EntryDetail entry={entry} /> : <p>This request is no longer in the journal.</p>}
    </section>
  )
}

/** The list's filters (errors only, the kind) and how many requests they leave. */
function RequestFilters(props: {
  errorsOnly: boolean
  setErrorsOnly: (errorsOnly: boolean) => void
  kind: '' | JournalEntry['kind']
  setKind: (kind: '' | JournalEntry['kind']) => void
  count: number
}) {
  const { errorsOnly, count } = props
  return (
    <div class="filters">
      <label class="check">
        <input type="checkbox" checked={errorsOnly} onChange={(e) => props.setErrorsOnly(e.currentTarget.checked)} />{' '}
        Errors only
      </label>
      <KindSelect kind={props.kind} setKind={props.setKind} />
      <span class="muted">
        {count} {count === 1 ? 'request' : 'requests'}
      </span>
    </div>
  )
}

/** API requests and webhook attempts, or one of them. */
function KindSelect({
  kind,
  setKind,
}: {
  kind: '' | JournalEntry['kind']
  setKind: (kind: '' | JournalEntry['kind']) => void
}) {
  return (
    <label class="select">
      <span>Kind</span>
      <select value={kind} onChange={(e) => setKind(e.currentTarget.value as typeof kind)}>
        <option value="">All</option>
        <option value="api">API requests</option>
        <option value="webhook">Webhook attempts</option>
      </select>
    </label>
  )
}
