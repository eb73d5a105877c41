/** @jsxImportSource preact */
/**
 * The webhook inspector: every attempt (event, URL, status, latency, attempt number, next retry),
 * its request headers and body and the receiver's answer, and a Replay button that sends the
 * event again with the same `webhook-id` (`POST /__sandbox/webhooks/{id}/replay`).
 */
import { Fragment } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { WebhookAttempt } from '../../../domain/webhook-attempts.js'
import { ApiFailure, call, getPage } from './api.js'
import { fullTime, prettyBody, shortTime } from './format.js'
import { onSandboxEvent } from './state.js'
import { CopyButton } from './widgets.js'
import { hrefOf } from './router.js'

function outcome(a: WebhookAttempt): string {
  if (a.state === 'queued' || a.state === 'sending') return a.state
  return a.response ? `${a.response.status}${a.error ? ` (${a.error})` : ''}` : (a.error ?? '—')
}

function AttemptDetail({ attempt }: { attempt: WebhookAttempt }) {
  const headers = Object.entries(attempt.request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
  return (
    <div class="webhook-detail">
      <dl class="meta">
        <div>
          <dt>URL</dt>
          <dd>
            <code>{attempt.url}</code>
          </dd>
        </div>
        {attempt.message_id ? (
          <div>
            <dt>Message</dt>
            <dd>
              <a href={hrefOf('messages', attempt.message_id)}>{attempt.message_id}</a>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>webhook-id</dt>
          <dd>
            <code>{attempt.webhook_id}</code> <CopyButton text={attempt.webhook_id} label="Copy webhook-id" />
          </dd>
        </div>
        <div>
          <dt>Queued</dt>
          <dd>{fullTime(attempt.at)}</dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd>{attempt.response ? `${attempt.response.latency_ms} ms` : '—'}</dd>
        </div>
        <div>
          <dt>Next retry</dt>
          <dd>{attempt.next_retry_at ? fullTime(attempt.next_retry_at) : '—'}</dd>
        </div>
      </dl>
      <h4>Request headers</h4>
      <pre class="code" tabIndex={0} aria-label="Request headers">
        {headers || '(not sent yet)'}
      </pre>
      <h4>Request body</h4>
      <pre class="code" tabIndex={0} aria-label="Request body">
        {prettyBody(attempt.request.body)}
      </pre>
      <h4>Answer (first 1 KiB)</h4>
      <pre class="code" tabIndex={0} aria-label="Answer body">
        {attempt.response ? attempt.response.body_excerpt || '(empty)' : '(no answer)'}
      </pre>
    </div>
  )
}

/** The newest 100 webhook attempts and their total, reloaded as attempts are journaled. */
function useAttempts(onError: (message: string) => void): {
  attempts: WebhookAttempt[] | null
  total: number
  load: () => Promise<void>
  receiver: Receiver
} {
  const [attempts, setAttempts] = useState<WebhookAttempt[] | null>(null)
  const [total, setTotal] = useState(0)
  const [receiver, setReceiver] = useState<Receiver>({ url: null })
  const load = async () => {
    try {
      const page = (await getPage<WebhookAttempt>(
        '/__sandbox/webhooks',
        new URLSearchParams({ limit: '100' }),
      )) as Awaited<ReturnType<typeof getPage<WebhookAttempt>>> & Receiver
      setAttempts(page.data)
      setTotal(page.pagination.total)
      setReceiver({ url: page.url ?? null, secret: page.secret })
    } catch (error) {
      onError(error instanceof ApiFailure ? error.message : 'Could not load the webhook attempts.')
    }
  }
  useEffect(() => {
    void load()
    // Webhook attempts are journaled: a `request` event of kind webhook means the list moved.
    let timer: ReturnType<typeof setTimeout> | undefined
    const off = onSandboxEvent((event) => {
      if (event.type !== 'request' && event.type !== 'reset') return
      clearTimeout(timer)
      timer = setTimeout(() => void load(), 250)
    })
    return () => {
      off()
      clearTimeout(timer)
    }
  }, [])
  return { attempts, total, load, receiver }
}

/** Where events go and, for the admin, the secret that signs them (`GET /__sandbox/webhooks`). */
interface Receiver {
  url: string | null
  secret?: string
}

/** What a developer wires a receiver with: the URL and the signing secret (admin only), copyable. */
function ReceiverCard({ receiver }: { receiver: Receiver }) {
  if (receiver.url === null) return null
  return (
    <dl class="meta receiver" aria-label="Webhook receiver">
      <div>
        <dt>URL</dt>
        <dd>
          <code>{receiver.url}</code>
        </dd>
      </div>
      <div>
        <dt>Signing secret</dt>
        <dd>
          {receiver.secret ? (
            <>
              <code data-testid="webhook-secret">{receiver.secret}</code>{' '}
              <CopyButton text={receiver.secret} label="Copy the signing secret" />{' '}
              <span class="muted">
                verify <code>webhook-signature</code> with it (Standard Webhooks)
              </span>
            </>
          ) : (
            <span class="muted">shown to the admin token only</span>
          )}
        </dd>
      </div>
    </dl>
  )
}

export function WebhooksPage() {
  const [notice, setNotice] = useState('')
  const { attempts, total, load, receiver } = useAttempts(setNotice)
  const replay = async (attempt: WebhookAttempt) => {
    try {
      await call('POST', `/__sandbox/webhooks/${encodeURIComponent(attempt.id)}/replay`, {})
      setNotice(`Replayed ${attempt.event} with webhook-id ${attempt.webhook_id}.`)
      void load()
    } catch (error) {
      setNotice(error instanceof ApiFailure ? error.message : 'Replay failed.')
    }
  }
  return (
    <section class="webhooks-page" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p class="muted">
        {attempts === null
          ? 'Loading…'
          : `${total} attempt${total === 1 ? '' : 's'} (the newest 100 shown). Signed per Standard Webhooks; retries, duplicates and replays keep the webhook-id.`}
      </p>
      <ReceiverCard receiver={receiver} />
      <p role="status" class="notice">
        {notice}
      </p>
      {attempts !== null && attempts.length === 0 ? (
        <p>
          No webhook attempts yet. Start sendbox with <code>--webhook-url URL</code>.
        </p>
      ) : null}
      {attempts !== null && attempts.length > 0 ? <AttemptsTable attempts={attempts} replay={replay} /> : null}
    </section>
  )
}

function AttemptsTable({
  attempts,
  replay,
}: {
  attempts: WebhookAttempt[]
  replay: (attempt: WebhookAttempt) => Promise<void>
}) {
  const [open, setOpen] = useState<string | null>(null)
  return (
    <table class="webhooks">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Event</th>
          <th scope="col">Attempt</th>
          <th scope="col">Answer</th>
          <th scope="col">Latency</th>
          <th scope="col">Next retry</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <AttemptRows
            key={a.id}
            attempt={a}
            open={open === a.id}
            toggle={() => setOpen(open === a.id ? null : a.id)}
            replay={replay}
          />
        ))}
      </tbody>
    </table>
  )
}

/** An attempt's row, and under it its detail while it is open (its event's button toggles it). */
function AttemptRows({
  attempt: a,
  open,
  toggle,
  replay,
}: {
  attempt: WebhookAttempt
  open: boolean
  toggle: () => void
  replay: (attempt: WebhookAttempt) => Promise<void>
}) {
  return (
    <Fragment>
      <tr class={a.error ? 'failed' : ''}>
        <td>{shortTime(a.at)}</td>
        <td>
          <button type="button" class="link" aria-expanded={open} onClick={toggle}>
            {a.event}
          </button>
        </td>
        <td>
          {a.attempt}
          {a.trigger === 'event' || a.trigger === 'retry' ? '' : ` (${a.trigger})`}
        </td>
        <td>{outcome(a)}</td>
        <td>{a.response ? `${a.response.latency_ms} ms` : '—'}</td>
        <td>{a.next_retry_at ? shortTime(a.next_retry_at) : '—'}</td>
        <td>
          <button
            type="button"
            class="small"
            onClick={() => void replay(a)}
            aria-label={`Replay ${a.event} (${a.webhook_id})`}
          >
            Replay
          </button>
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={7}>
            <AttemptDetail attempt={a} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  )
}
