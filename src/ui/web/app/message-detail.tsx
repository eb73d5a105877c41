/** @jsxImportSource preact */
/** One captured message: a header common to every channel, then the channel's own view. */
import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ApiFailure, call } from './api.js'
import { webViewOf } from './channels/index.js'
import { WithChecks } from './checks-tab.js'
import { fullTime, newerStatus, senderOf, type StatusFields } from './format.js'
import { RequestLink } from './message-parts.js'
import { KeywordTag, ReplyForm } from './qa-parts.js'
import { navigate } from './router.js'
import { markSeen } from './seen.js'
import { deleteMessage, onSandboxEvent } from './state.js'
import type { CapturedMessage } from './types.js'
import { ChannelTag, confirmAction, Shown, StatusBadge, StatusHistory } from './widgets.js'

/** Fetches the message and follows its status steps from the event stream. */
function useMessage(id: string): { message: CapturedMessage | null; error: string | null } {
  const [message, setMessage] = useState<CapturedMessage | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const controller = new AbortController()
    let stepped: StatusFields | undefined
    setMessage(null)
    setError(null)
    call<CapturedMessage>('GET', `/__sandbox/messages/${encodeURIComponent(id)}`, undefined, controller.signal)
      .then((m) => {
        setMessage(newerStatus(m, stepped))
        markSeen(id)
      })
      .catch((e: Error) => {
        if (e.name !== 'AbortError')
          setError(
            e instanceof ApiFailure && e.status === 404
              ? 'This message is gone: it was cleared or evicted by the outbox cap.'
              : e.message,
          )
      })
    const stop = onSandboxEvent((event) => {
      if (event.type === 'message.status' && event.message.message_id === id) {
        // Kept for the fetch's answer too: the server may have read it before this step.
        stepped = newerStatus(stepped, event.message)
        setMessage((current) => (current ? newerStatus(current, event.message) : current))
      }
    })
    return () => {
      controller.abort()
      stop()
    }
  }, [id])
  return { message, error }
}

export function MessageDetail({ id, narrow }: { id: string; narrow: boolean }) {
  const { message, error } = useMessage(id)
  const back = (
    <a class="back" href="#/messages">
      ← All messages
    </a>
  )
  if (error) {
    return (
      <div class="detail">
        {back}
        <p class="error" role="alert">
          {error}
        </p>
      </div>
    )
  }
  if (!message)
    return (
      <div class="detail" aria-busy="true">
        {narrow ? back : null}
        <p>Loading…</p>
      </div>
    )
  const view = webViewOf(message)
  return (
    <article class={`detail detail-${message.channel}`} aria-labelledby="detail-title">
      {narrow ? back : null}
      <DetailHead
        message={message}
        title={message.direction === 'inbound' ? `Reply from ${senderOf(message) ?? ''}` : view.title(message as never)}
      />
      <MetaList message={message} view={view} />
      <WithChecks key={message.message_id} message={message}>
        <view.View message={message as never} />
      </WithChecks>
      <ReplyForm message={message} />
      <StatusHistory history={message.status_history} />
    </article>
  )
}

/** The header's facts: channel, recipient, the channel's own, when, who sent it, its id, why it failed. */
function MetaList({ message, view }: { message: CapturedMessage; view: ReturnType<typeof webViewOf> }) {
  return (
    <dl class="meta">
      <Meta term="Channel">
        <ChannelTag channel={message.channel} />
      </Meta>
      <Meta term="To">
        <Shown text={message.to} />
      </Meta>
      {view.meta?.(message as never)}
      <Meta term="Captured">
        <time dateTime={message.created_at}>{fullTime(message.created_at)}</time>
      </Meta>
      <Meta term="Account">
        {message.account} · {message.plan} · <code>{message.key}</code>
      </Meta>
      <Meta term="Id">
        <code>{message.message_id}</code> <RequestLink messageId={message.message_id} />
      </Meta>
      {message.reason ? (
        <Meta term="Reason">
          <Shown text={message.reason} />
        </Meta>
      ) : null}
    </dl>
  )
}

/** One row of the header's description list. */
function Meta({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** The title, the status and the delete button. */
function DetailHead({ message, title }: { message: CapturedMessage; title: string }) {
  const remove = async () => {
    if (
      await confirmAction(
        'Delete this message?',
        `It is removed from the outbox for every client (${message.message_id}).`,
        'Delete message',
      )
    ) {
      await deleteMessage(message.message_id)
      navigate('messages')
    }
  }
  return (
    <header class="detail-head">
      <h2 id="detail-title" dir="auto">
        <Shown text={title} />
      </h2>
      <div class="detail-actions">
        <KeywordTag message={message} />
        <StatusBadge status={message.status} />
        <button type="button" class="small danger-outline" onClick={remove}>
          Delete
        </button>
      </div>
    </header>
  )
}
