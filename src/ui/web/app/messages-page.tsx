/** @jsxImportSource preact */
/** The inbox: filters, per-channel counts, the live virtualised list, and the open message. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { safeText } from '../../../domain/safe-text.js'
import { call } from './api.js'
import { webViewOf } from './channels/index.js'
import { shortTime, summaryOf } from './format.js'
import { MessageDetail } from './message-detail.js'
import { navigate, useNarrow } from './router.js'
import { isSeen, onSeen } from './seen.js'
import { counts, deleteMessage, filters, messages, setFilters, useFeed, useStore } from './state.js'
import { CHANNEL_LABELS, CHANNELS, STATUSES, type KeyUsage, type MessageSummary } from './types.js'
import { VirtualList } from './virtual-list.js'
import { accountLabel, accountLabels, KeywordTag, PartyCell } from './qa-parts.js'
import { ChannelTag, confirmAction, Sender, Shown, StatusBadge } from './widgets.js'

/** `y`: the first code of the open (else selected) message to the clipboard, announced. */
async function copyFirstCode(message: MessageSummary): Promise<void> {
  const code = message.codes[0]
  const status = document.getElementById('key-status')
  if (!code) {
    if (status) status.textContent = 'This message has no code.'
    return
  }
  await navigator.clipboard?.writeText(code).catch(() => {})
  if (status) status.textContent = `Copied ${code}.`
}

/** `d` or Delete: the open (else selected) message, after a confirmation. */
async function deleteWithConfirm(message: MessageSummary): Promise<void> {
  if (
    !(await confirmAction(
      'Delete this message?',
      `It is removed from the outbox for every client (${message.message_id}).`,
      'Delete message',
    ))
  )
    return
  await deleteMessage(message.message_id)
  navigate('messages')
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null
  return !!element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName))
}

function Filters({ accounts, labels }: { accounts: string[]; labels: ReadonlyMap<string, string> }) {
  const current = useStore(filters)
  const update = (name: string, value: string) => {
    const next = new URLSearchParams(filters.get())
    if (value) next.set(name, value)
    else next.delete(name)
    setFilters(next)
  }
  return (
    <div class="filters">
      <SearchBox initial={current.get('q') ?? ''} onSearch={(q) => update('q', q)} />
      <ChannelChips channel={current.get('channel') ?? ''} onChannel={(c) => update('channel', c)} />
      <FilterSelect
        label="Status"
        any="any status"
        value={current.get('status') ?? ''}
        options={STATUSES}
        onChange={(v) => update('status', v)}
      />
      <FilterSelect
        label="Account"
        any="all accounts"
        value={current.get('account') ?? ''}
        options={accounts}
        optionLabel={(a) => accountLabel(a, labels)}
        onChange={(v) => update('account', v)}
      />
    </div>
  )
}

/** The search field: the list follows 200 ms after the last key. */
function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [q, setQ] = useState(initial)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const onInput = (value: string) => {
    setQ(value)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => onSearch(value.trim()), 200)
  }
  return (
    <form role="search" class="search" onSubmit={(e) => e.preventDefault()}>
      <label for="search" class="visually-hidden">
        Search messages
      </label>
      <input
        id="search"
        type="search"
        placeholder="Search recipient, sender, subject, text  ( / )"
        value={q}
        onInput={(e) => onInput(e.currentTarget.value)}
        autoComplete="off"
        spellcheck={false}
      />
    </form>
  )
}

/** One chip per channel with its count; the pressed one filters (pressed again: all). */
function ChannelChips({ channel, onChannel }: { channel: string; onChannel: (channel: string) => void }) {
  const perChannel = useStore(counts)
  return (
    <div class="chips" role="group" aria-label="Messages per channel">
      <button type="button" class="chip" aria-pressed={channel === ''} onClick={() => onChannel('')}>
        All
      </button>
      {CHANNELS.map((c) => (
        <button
          key={c}
          type="button"
          class={`chip chip-${c}`}
          aria-pressed={channel === c}
          onClick={() => onChannel(channel === c ? '' : c)}
        >
          {CHANNEL_LABELS[c]}{' '}
          <span class="count" aria-label={`${perChannel[c] ?? 'unknown'} messages`}>
            {perChannel[c] ?? '–'}
          </span>
        </button>
      ))}
    </div>
  )
}

function FilterSelect(props: {
  label: string
  any: string
  value: string
  options: readonly string[]
  optionLabel?: (value: string) => string
  onChange: (value: string) => void
}) {
  return (
    <label class="select">
      <span>{props.label}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{props.any}</option>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {props.optionLabel ? props.optionLabel(o) : o}
          </option>
        ))}
      </select>
    </label>
  )
}

function Row({ message }: { message: MessageSummary | undefined }) {
  if (!message) return <span class="cell placeholder">loading…</span>
  const unseen = !isSeen(message.message_id)
  const from = webViewOf(message).sender(message as never)
  return (
    <>
      <span class="cell time">
        {unseen ? (
          <>
            <span class="unseen-dot" aria-hidden="true" />
            <span class="visually-hidden">unseen, </span>
          </>
        ) : null}
        <time dateTime={message.created_at}>{shortTime(message.created_at)}</time>
      </span>
      <span class="cell channel-cell">
        <ChannelTag channel={message.channel} />
      </span>
      <span class="cell to" title={safeText(message.to)}>
        <PartyCell message={message} />
      </span>
      <span class="cell subject" title={safeText(summaryOf(message))}>
        <KeywordTag message={message} />
        {summaryOf(message) ? <Shown text={summaryOf(message)} /> : <em>(empty)</em>}
        {from && message.direction !== 'inbound' ? (
          <span class="from">
            {' — '}
            <Sender from={from} />
          </span>
        ) : null}
      </span>
      <span class="cell status">
        <StatusBadge status={message.status} />
      </span>
    </>
  )
}

/** Accounts to filter by: the configured keys' accounts (GET /__sandbox/keys), each with its keys and plans. */
function useAccounts(): { accounts: string[]; labels: ReadonlyMap<string, string> } {
  const [keys, setKeys] = useState<KeyUsage[]>([])
  useEffect(() => {
    call<{ data?: KeyUsage[] } | KeyUsage[]>('GET', '/__sandbox/keys')
      .then((answer) => setKeys(Array.isArray(answer) ? answer : (answer.data ?? [])))
      .catch(() => setKeys([]))
  }, [])
  return useMemo(
    () => ({
      accounts: [...new Set(keys.map((k) => k.account).filter((a): a is string => !!a))].sort(),
      labels: accountLabels(keys),
    }),
    [keys],
  )
}

/** What the list's keys act on: the latest render's rows, selection and actions. */
interface ListState {
  rows: ReadonlyArray<MessageSummary | undefined>
  openId: string | null
  selected: number
  select: (index: number) => void
  open: (index: number) => void
}

/**
 * The inbox's keys: `/` searches, j/k or ↑/↓ move, Enter opens, Esc closes (or leaves the
 * search), `y` copies the first code and `d` deletes the open (else selected) message.
 */
function onListKey(event: KeyboardEvent, { rows, openId, selected, select, open }: ListState): void {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
  const typing = isTyping(event.target)
  if (event.key === 'Escape' && typing && (event.target as HTMLElement).id === 'search') {
    ;(event.target as HTMLElement).blur()
    document.getElementById('message-list')?.focus()
    return
  }
  if (typing || document.querySelector('dialog[open]')) return
  const inList = (event.target as HTMLElement | null)?.closest?.('#message-list') || event.target === document.body
  const move = (index: number) => {
    event.preventDefault()
    select(index)
    document.getElementById('message-list')?.focus({ preventScroll: true })
  }
  if (event.key === '/') {
    event.preventDefault()
    document.getElementById('search')?.focus()
  } else if (event.key === 'j' || (event.key === 'ArrowDown' && inList)) move(Math.min(selected + 1, rows.length - 1))
  else if (event.key === 'k' || (event.key === 'ArrowUp' && inList)) move(Math.max(selected - 1, 0))
  else if (event.key === 'Enter' && inList) {
    event.preventDefault()
    open(selected)
  } else if (event.key === 'Escape' && openId) {
    navigate('messages')
    document.getElementById('message-list')?.focus()
  } else if (event.key === 'd' || event.key === 'Delete' || event.key === 'y') {
    const target = rows.find((m) => m?.message_id === openId) ?? rows[selected]
    if (!target) return
    event.preventDefault()
    void (event.key === 'y' ? copyFirstCode(target) : deleteWithConfirm(target))
  }
}

/** The selected row: it follows its message when new ones arrive above it, and the open message's row is the selection. */
function useSelection(openId: string | null): ListState {
  const rows = messages.rows
  const [selection, setSelection] = useState<{ index: number; id: string | null }>({ index: 0, id: null })
  let selected = Math.min(selection.index, rows.length - 1)
  if (selection.id !== null && rows[selected]?.message_id !== selection.id) {
    const moved = rows.findIndex((m) => m?.message_id === selection.id)
    if (moved !== -1) selected = moved
  }
  const select = (index: number) => {
    latest.current.selected = index
    setSelection({ index, id: rows[index]?.message_id ?? null })
  }
  const open = (index: number) => {
    const message = rows[index]
    select(index)
    if (message) navigate('messages', message.message_id)
  }
  useEffect(() => {
    if (!openId) return
    const index = rows.findIndex((m) => m?.message_id === openId)
    if (index !== -1) select(index)
  }, [openId, messages.version])
  // One key listener for the page's life, reading the latest render's values (keys can come faster than renders).
  const latest = useRef<ListState>({ rows, openId, selected, select, open })
  latest.current = { rows, openId, selected, select, open }
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => onListKey(event, latest.current)
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  return latest.current
}

export function MessagesPage({ openId }: { openId: string | null }) {
  useFeed(messages)
  const narrow = useNarrow()
  const { accounts, labels } = useAccounts()
  const list = useSelection(openId)
  const [, setSeenVersion] = useState(0)
  useEffect(() => onSeen(() => setSeenVersion((n) => n + 1)), [])
  const seenAccounts = useMemo(() => {
    const all = new Set(accounts)
    for (let i = 0; i < Math.min(messages.rows.length, 500); i++)
      if (messages.rows[i]) all.add(messages.rows[i]!.account)
    return [...all].sort()
  }, [accounts, messages.version])
  return (
    <div class={`messages-page${openId ? ' has-detail' : ''}`}>
      {!narrow || !openId ? (
        <ListPane list={list} accounts={seenAccounts} labels={labels} rowHeight={narrow ? 58 : 40} />
      ) : null}
      {openId ? (
        <section class="detail-pane" aria-label="Message">
          <MessageDetail id={openId} narrow={narrow} />
        </section>
      ) : !narrow ? (
        <section class="detail-pane empty-detail" aria-label="Message">
          <p>Select a message to read it.</p>
        </section>
      ) : null}
    </div>
  )
}

function ListPane({
  list: { rows, openId, selected, open },
  accounts,
  labels,
  rowHeight,
}: {
  list: ListState
  accounts: string[]
  labels: ReadonlyMap<string, string>
  rowHeight: number
}) {
  const current = useStore(filters)
  const filtered = [...current.keys()].some((k) => current.get(k))
  return (
    <section class="list-pane" aria-label="Captured messages">
      <Filters accounts={accounts} labels={labels} />
      <div class="list-head" aria-hidden="true">
        <span>Time</span>
        <span>Channel</span>
        <span>Recipient</span>
        <span>Subject / text / template</span>
        <span>Status</span>
      </div>
      {messages.error ? (
        <p class="error" role="alert">
          {messages.error}
        </p>
      ) : null}
      <VirtualList
        id="message-list"
        label={`Messages, newest first${rows.length ? `: ${rows.length}` : ''}`}
        count={rows.length}
        rowHeight={rowHeight}
        selected={selected}
        onRange={(start, end) => messages.ensure(start, end)}
        onActivate={open}
        rowKey={(i) => rows[i]?.message_id ?? `pending-${i}`}
        rowClass={(i) => {
          const m = rows[i]
          return `${m && !isSeen(m.message_id) ? 'unseen' : ''}${m && m.message_id === openId ? ' open' : ''}`
        }}
        row={(i) => <Row message={rows[i]} />}
        empty={!messages.loaded ? 'Loading…' : filtered ? 'No message matches these filters.' : <NoMessagesYet />}
      />
      <p class="hint" aria-hidden="true">
        <kbd>j</kbd>/<kbd>k</kbd> or <kbd>↑</kbd>/<kbd>↓</kbd> move · <kbd>Enter</kbd> opens · <kbd>/</kbd> searches ·{' '}
        <kbd>y</kbd> copies the first code · <kbd>d</kbd> deletes
      </p>
    </section>
  )
}

function NoMessagesYet() {
  return (
    <>
      <strong>No messages yet.</strong> Send one to the API (for example <code>POST /v1/email/send</code>) and it
      appears here at once.
    </>
  )
}
