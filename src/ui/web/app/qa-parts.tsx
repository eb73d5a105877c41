/** @jsxImportSource preact */
/**
 * QA without curl (issue 33, item 3) in the web inbox: simulate a reply on an SMS or WhatsApp
 * message (`POST /__sandbox/inbound`), the opt-outs with a Remove button
 * (`GET`/`DELETE /__sandbox/opt-outs`), a reply's STOP/START shown as such, and accounts named
 * with their keys and plans.
 */
import { useEffect, useState } from 'preact/hooks'
import { INBOUND_CHANNELS } from '../../../contract/constants.js'
import { keywordAction } from '../../../domain/opt-outs.js'
import { ApiFailure, call, getPage } from './api.js'
import { senderOf } from './format.js'
import { onSandboxEvent } from './state.js'
import type { CapturedMessage, KeyUsage, MessageSummary } from './types.js'
import { Shown } from './widgets.js'

/** An opt-out as `GET /__sandbox/opt-outs` lists it. */
interface OptOut {
  account: string
  number: string
  keyword: string
  at: string
}

/** A reply's keyword as a tag: `STOP · opt-out`, `START · opt-in`; nothing for other text or a sent message. */
export function KeywordTag({ message }: { message: Pick<MessageSummary, 'direction' | 'text'> }) {
  if (message.direction !== 'inbound') return null
  const action = keywordAction(message.text)
  if (action === null) return null
  return (
    <span class={`keyword keyword-${action}`} data-testid="keyword">
      {message.text.trim().toUpperCase()} · {action === 'opt_out' ? 'opt-out' : 'opt-in'}
    </span>
  )
}

/** Who a list row names: the recipient of a sent message, the sender of a reply (`← +1415…`). */
export function PartyCell({ message }: { message: MessageSummary }) {
  if (message.direction !== 'inbound') return <Shown text={message.to} />
  return (
    <span class="inbound-from" title={`Reply from ${senderOf(message) ?? 'unknown'} to ${message.to}`}>
      ← <Shown text={senderOf(message) ?? message.to} />
    </span>
  )
}

/** "Simulate a reply" on an SMS or WhatsApp message: a text field (STOP, START, HELP or anything), posted as the other party. */
export function ReplyForm({ message }: { message: CapturedMessage }) {
  const [text, setText] = useState('')
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)
  if (!(INBOUND_CHANNELS as readonly string[]).includes(message.channel)) return null
  const from = message.direction === 'inbound' ? (senderOf(message) ?? message.to) : message.to
  const send = async (event: Event) => {
    event.preventDefault()
    if (!text.trim()) return
    try {
      const answer = await call<{ message: { message_id: string }; action: string | null; opted_out: boolean }>(
        'POST',
        '/__sandbox/inbound',
        { channel: message.channel, account: message.account, from, text: text.trim() },
      )
      const did =
        answer.action === 'opt_out'
          ? ` ${from} is now opted out (Controls → Opt-outs).`
          : answer.action === 'opt_in'
            ? ` ${from} is opted back in.`
            : ''
      setResult({ ok: true, text: `Reply captured as ${answer.message.message_id}.${did}` })
      setText('')
    } catch (error) {
      setResult({ ok: false, text: error instanceof ApiFailure ? error.message : 'The reply failed.' })
    }
  }
  return (
    <section class="reply-form card-lite" aria-labelledby="reply-title">
      <h3 id="reply-title">Simulate a reply</h3>
      <form class="row-form" onSubmit={send}>
        <label class="field">
          <span>
            Reply from <bdi>{from}</bdi> (STOP opts out, START back in)
          </span>
          <input
            name="reply"
            value={text}
            maxLength={4096}
            placeholder="STOP"
            autoComplete="off"
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="primary" disabled={!text.trim()}>
          Send reply
        </button>
      </form>
      {result ? (
        <p role="status" class={result.ok ? 'muted' : 'error'}>
          {result.text}
        </p>
      ) : null}
    </section>
  )
}

/** Opt-outs a page of the card shows (the list is paginated: issue 36, R19). */
const OPT_OUTS_PAGE = 100

/** One page of the opt-outs, reloaded when a reply or reset may have changed them. */
function useOptOutPage(page: number, setNote: (note: string) => void) {
  const [rows, setRows] = useState<OptOut[] | null>(null)
  const [pages, setPages] = useState({ total: 0, pages: 0 })
  const load = (at = page) =>
    getPage<OptOut>('/__sandbox/opt-outs', new URLSearchParams({ page: String(at), limit: String(OPT_OUTS_PAGE) }))
      .then((answer) => {
        setRows(answer.data)
        setPages({ total: answer.pagination.total, pages: answer.pagination.pages })
      })
      .catch((error: Error) => setNote(error.message))
  useEffect(() => {
    void load(page)
    return onSandboxEvent((event) => {
      if (event.type === 'message.captured' || event.type === 'reset') void load(page)
    })
  }, [page])
  return { rows, pages, load }
}

/** Previous / Next over a list's pages, with where it is (shown when there is more than one page). */
function Pager({
  page,
  pages,
  total,
  what,
  go,
}: {
  page: number
  pages: number
  total: number
  what: string
  go: (page: number) => void
}) {
  if (pages <= 1) return null
  return (
    <p class="pager">
      <button type="button" class="small" disabled={page <= 1} onClick={() => go(page - 1)}>
        Previous
      </button>{' '}
      Page {page} of {pages} ({total} {what}){' '}
      <button type="button" class="small" disabled={page >= pages} onClick={() => go(page + 1)}>
        Next
      </button>
    </p>
  )
}

/** The opted-out numbers, live (a reply's STOP shows at once), a page at a time, each with Remove (opt back in). */
export function OptOutsCard({ labels }: { labels: ReadonlyMap<string, string> }) {
  const [page, setPage] = useState(1)
  const [note, setNote] = useState('')
  const { rows, pages, load } = useOptOutPage(page, setNote)
  const remove = async (row: OptOut) => {
    try {
      await call('DELETE', '/__sandbox/opt-outs', { account: row.account, number: row.number })
      setNote(`${row.number} opted back in to ${row.account}.`)
      void load()
    } catch (error) {
      setNote(error instanceof ApiFailure ? error.message : 'Remove failed.')
    }
  }
  return (
    <section class="card wide" aria-labelledby="opt-outs-title">
      <h2 id="opt-outs-title">Opt-outs</h2>
      <p class="muted">
        Numbers that replied STOP (or were added by the controls), per account. A send to one is accepted (200 queued)
        and fails as opted out. Simulate a reply on an SMS or WhatsApp message to add one.
      </p>
      <p role="status" class="notice">
        {note}
      </p>
      <Pager page={page} pages={pages.pages} total={pages.total} what="numbers" go={setPage} />
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p class="muted">No number is opted out.</p>
      ) : (
        <table class="params opt-outs">
          <caption class="visually-hidden">Opted-out numbers</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Keyword</th>
              <th scope="col">Account</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.account} ${row.number}`}>
                <th scope="row">
                  <bdi>{row.number}</bdi>
                </th>
                <td>{row.keyword}</td>
                <td>{accountLabel(row.account, labels)}</td>
                <td>
                  <button
                    type="button"
                    class="small"
                    onClick={() => void remove(row)}
                    aria-label={`Remove the opt-out of ${row.number} (${row.account})`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** Each account's keys and plans, from `GET /__sandbox/keys`: `test_pro · Pro`. */
export function accountLabels(keys: readonly KeyUsage[]): Map<string, string> {
  const labels = new Map<string, string[]>()
  for (const k of keys) labels.set(k.account, [...(labels.get(k.account) ?? []), `${k.key} · ${k.plan_name ?? k.plan}`])
  return new Map([...labels].map(([account, list]) => [account, list.join(', ')]))
}

/** `acct_1 (test_pro · Pro)`. */
export function accountLabel(account: string, labels: ReadonlyMap<string, string>): string {
  const keys = labels.get(account)
  return keys ? `${account} (${keys})` : account
}
