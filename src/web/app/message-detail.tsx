/** @jsxImportSource preact */
/** One captured message: a header common to every channel, then the channel's own view. */
import type { ComponentChildren } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { segmentSms } from '../../domain/sms-encoding.js'
import { byChannel } from '../../schemas/constants.js'
import { safeText } from '../../ui/safe-text.js'
import { ApiFailure, call, needsAdminToken } from './api.js'
import { fullTime, newerStatus, senderOf, type StatusFields } from './format.js'
import { tokenizeHtml } from './html-tokens.js'
import { LinksList } from './links-list.js'
import { navigate } from './router.js'
import { markSeen } from './seen.js'
import { deleteMessage, onSandboxEvent } from './state.js'
import type { CapturedMessage, EmailMessage, SmsMessage, WhatsappMessage } from './types.js'
import { ChannelTag, confirmAction, CopyButton, JsonBlock, Sender, Shown, StatusBadge, StatusHistory, Tabs } from './widgets.js'
import { CodesList, markCodes, RequestLink, WhatsappBubble } from './message-parts.js'

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
        if (e.name !== 'AbortError') setError(e instanceof ApiFailure && e.status === 404 ? 'This message is gone: it was cleared or evicted by the outbox cap.' : e.message)
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
  if (!message) return <div class="detail" aria-busy="true">{narrow ? back : null}<p>Loading…</p></div>
  const remove = async () => {
    if (await confirmAction('Delete this message?', `It is removed from the outbox for every client (${message.message_id}).`, 'Delete message')) {
      await deleteMessage(message.message_id)
      navigate('messages')
    }
  }
  const body: ComponentChildren = byChannel(message, {
    email: (e) => <EmailView message={e} />,
    sms: (s) => <SmsView message={s} />,
    whatsapp: (w) => <WhatsappView message={w} />,
  })
  const title = message.direction === 'inbound'
    ? `Reply from ${senderOf(message)}`
    : byChannel(message, { email: (e) => e.email.subject || '(no subject)', sms: (s) => `SMS to ${s.to}`, whatsapp: (w) => `WhatsApp to ${w.to}` })
  return (
    <article class={`detail detail-${message.channel}`} aria-labelledby="detail-title">
      {narrow ? back : null}
      <header class="detail-head">
        <h2 id="detail-title" dir="auto">
          <Shown text={title} />
        </h2>
        <div class="detail-actions">
          <StatusBadge status={message.status} />
          <button type="button" class="small danger-outline" onClick={remove}>
            Delete
          </button>
        </div>
      </header>
      <dl class="meta">
        <div>
          <dt>Channel</dt>
          <dd>
            <ChannelTag channel={message.channel} />
          </dd>
        </div>
        <div>
          <dt>To</dt>
          <dd>
            <Shown text={message.to} />
          </dd>
        </div>
        {message.channel === 'email' ? (
          <div>
            <dt>From</dt>
            <dd>{message.email.from ? <Sender from={message.email.from} /> : 'not set'}</dd>
          </div>
        ) : null}
        <div>
          <dt>Captured</dt>
          <dd>
            <time dateTime={message.created_at}>{fullTime(message.created_at)}</time>
          </dd>
        </div>
        <div>
          <dt>Account</dt>
          <dd>
            {message.account} · {message.plan} · <code>{message.key}</code>
          </dd>
        </div>
        <div>
          <dt>Id</dt>
          <dd>
            <code>{message.message_id}</code> <RequestLink messageId={message.message_id} />
          </dd>
        </div>
        {message.reason ? (
          <div>
            <dt>Reason</dt>
            <dd>
              <Shown text={message.reason} />
            </dd>
          </div>
        ) : null}
      </dl>
      {body}
      <StatusHistory history={message.status_history} />
    </article>
  )
}

/** Whether the HTML references anything remote (images, backgrounds, stylesheets). */
export function hasRemoteContent(html: string): boolean {
  return /\b(?:src|srcset|background|href|poster)\s*=\s*["']?\s*(?:https?:)?\/\/|url\(\s*["']?\s*(?:https?:)?\/\//i.test(html.replace(/<a\b[^>]*>/gi, ''))
}

type EmailTab = 'html' | 'text' | 'source' | 'links' | 'request'
type PreviewWidth = 'desktop' | 'tablet' | 'mobile'
/** The preview's presets: desktop at least 600 px (the pane scrolls when narrower), tablet 768, phone 375. */
const PREVIEW_WIDTHS: [PreviewWidth, string][] = [['desktop', 'Desktop'], ['tablet', 'Tablet'], ['mobile', 'Phone']]

function EmailView({ message }: { message: EmailMessage }) {
  const [tab, setTab] = useState<EmailTab>('html')
  const [width, setWidth] = useState<PreviewWidth>('desktop')
  const [remote, setRemote] = useState(false)
  // Behind an admin token the iframe (which cannot send a header) needs the message's preview token.
  const [preview, setPreview] = useState<{ token: string | null; error: string | null }>({ token: null, error: null })
  useEffect(() => {
    setRemote(false)
    setPreview({ token: null, error: null })
    if (!needsAdminToken()) return
    const controller = new AbortController()
    call<{ token: string }>('GET', `/__sandbox/messages/${encodeURIComponent(message.message_id)}/preview`, undefined, controller.signal)
      .then((answer) => setPreview({ token: answer.token, error: null }))
      .catch((e: Error) => {
        if (e.name !== 'AbortError') setPreview({ token: null, error: e.message })
      })
    return () => controller.abort()
  }, [message.message_id])
  const links = message.links
  const remoteRefs = useMemo(() => hasRemoteContent(message.email.html), [message.email.html])
  const query = new URLSearchParams()
  const token = preview.token
  if (token) query.set('token', token)
  if (remote) query.set('remote', '1')
  const src = `/__sandbox/messages/${encodeURIComponent(message.message_id)}/html${query.size ? `?${query}` : ''}`
  const tabs: { id: EmailTab; label: string }[] = [
    { id: 'html', label: 'HTML' },
    { id: 'text', label: 'Text' },
    { id: 'source', label: 'Source' },
    { id: 'links', label: `Links (${links.length})` },
    { id: 'request', label: 'Request' },
  ]
  return (
    <section class="email-view">
      <CodesList codes={message.codes} />
      <Tabs<EmailTab> label="Email views" idPrefix="email" tabs={tabs} current={tab} onChange={setTab} />
      <div id="email-panel" role="tabpanel" aria-labelledby={`email-tab-${tab}`} class="panel">
        {tab === 'html' ? (
          <>
            <div class="toolbar">
              <div role="group" aria-label="Preview width" class="segmented">
                {PREVIEW_WIDTHS.map(([id, label]) => (
                  <button key={id} type="button" aria-pressed={width === id} onClick={() => setWidth(id)}>
                    {label}
                  </button>
                ))}
              </div>
              {remoteRefs && !remote ? (
                // The preview itself says remote content is blocked (the server's banner); the button loads it.
                <button type="button" class="small" onClick={() => setRemote(true)}>
                  Load remote content
                </button>
              ) : remote ? (
                <p class="remote-note" role="status">
                  Remote content loaded.
                </p>
              ) : null}
            </div>
            {needsAdminToken() && !token ? (
              <p class={preview.error ? 'error' : 'muted'} role={preview.error ? 'alert' : 'status'}>
                {preview.error ? `The preview needs a preview token, which the server refused: ${preview.error}. The Source and Text tabs still work.` : 'Opening the preview…'}
              </p>
            ) : (
              <div class={`frame-wrap width-${width}`}>
                <iframe key={src} title="Email HTML preview" sandbox="" src={src} referrerpolicy="no-referrer" loading="lazy" />
              </div>
            )}
          </>
        ) : tab === 'text' ? (
          <pre class="text-body" tabIndex={0} dir="auto">
            {safeText(message.text) || '(no text)'}
          </pre>
        ) : tab === 'source' ? (
          <HtmlSource html={message.email.html} />
        ) : tab === 'links' ? (
          <LinksList links={links} />
        ) : (
          <JsonBlock value={message.request} label="Request body" />
        )}
      </div>
    </section>
  )
}

const SOURCE_HIGHLIGHT_CAP = 200_000

function HtmlSource({ html }: { html: string }) {
  const tokens = useMemo(() => tokenizeHtml(html.slice(0, SOURCE_HIGHLIGHT_CAP)), [html])
  return (
    <pre class="code source" aria-label="HTML source" tabIndex={0}>
      <code>
        {tokens.map((t, i) => (t.kind === 'text' ? safeText(t.text) : <span key={i} class={`tok-${t.kind}`}>{safeText(t.text)}</span>))}
        {html.length > SOURCE_HIGHLIGHT_CAP ? safeText(html.slice(SOURCE_HIGHLIGHT_CAP)) : null}
      </code>
    </pre>
  )
}

/** Splits text around the codes, marking each occurrence. */
const withCodes = markCodes

function SmsView({ message }: { message: SmsMessage }) {
  const { sms } = message
  const segmented = useMemo(() => segmentSms(sms.text), [sms.text])
  const codes = message.codes
  const perPart = segmented.parts.length > 1 ? (segmented.encoding === 'GSM-7' ? 153 : 67) : segmented.encoding === 'GSM-7' ? 160 : 70
  return (
    <section class="sms-view">
      <div class="phone" aria-label="Phone preview">
        <div class="phone-head">{sms.from === null ? 'Sender not set' : <Shown text={sms.from} />}</div>
        <div dir="auto" class="bubble sms-bubble" aria-label={`SMS text in ${segmented.parts.length} segment${segmented.parts.length === 1 ? '' : 's'}`}>
          {segmented.parts.map((part, i) => (
            <span key={i} class={`segment seg-${i % 2}`} data-segment={i + 1}>
              {segmented.parts.length > 1 ? (
                <span class="segment-mark" aria-label={`segment ${i + 1}`}>
                  {i + 1}
                </span>
              ) : null}
              {withCodes(safeText(part), codes)}
            </span>
          ))}
        </div>
      </div>
      <dl class="meta sms-meta">
        <div>
          <dt>Sender</dt>
          <dd>{sms.from === null ? 'not set' : <Shown text={sms.from} />}</dd>
        </div>
        <div>
          <dt>Encoding</dt>
          <dd>{sms.encoding}</dd>
        </div>
        <div>
          <dt>Length</dt>
          <dd>
            {sms.characters} characters · {sms.units} {sms.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}
          </dd>
        </div>
        <div>
          <dt>Segments</dt>
          <dd data-testid="segment-count">
            {sms.segments} (up to {perPart} {sms.encoding === 'GSM-7' ? 'septets' : 'units'} each)
          </dd>
        </div>
      </dl>
      <CodesList codes={codes} />
      <details>
        <summary>Request</summary>
        <JsonBlock value={message.request} label="Request body" />
      </details>
    </section>
  )
}

/** Which parameters the preview shows: flagged when their value is empty or nowhere in it. */
export function parameterPlacement(preview: string, parameters: Record<string, string>): { name: string; value: string; placed: boolean }[] {
  return Object.entries(parameters).map(([name, value]) => ({ name, value, placed: value.trim() !== '' && preview.includes(value) }))
}

function WhatsappView({ message }: { message: WhatsappMessage }) {
  const { whatsapp } = message
  const rows = parameterPlacement(whatsapp.preview, whatsapp.parameters)
  const values = rows.filter((r) => r.placed).map((r) => r.value)
  return (
    <section class="whatsapp-view">
      <WhatsappBubble message={message} values={values.map(safeText)} />
      <CodesList codes={message.codes} />
      <dl class="meta">
        <div>
          <dt>Template</dt>
          <dd>
            <code>
              <Shown text={whatsapp.template} />
            </code>
          </dd>
        </div>
        <div>
          <dt>Language</dt>
          <dd>
            <Shown text={whatsapp.language} />
          </dd>
        </div>
      </dl>
      <table class="params">
        <caption>Parameters</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">In preview</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3}>No parameters.</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.name} class={row.placed ? '' : 'unplaced'}>
                <th scope="row">
                  <code>
                    <Shown text={row.name} />
                  </code>
                </th>
                <td>{row.value === '' ? <em>(empty)</em> : <Shown text={row.value} />}</td>
                <td>{row.placed ? 'placed' : <strong class="flag">⚠ not placed in the preview</strong>}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <details>
        <summary>Request</summary>
        <JsonBlock value={message.request} label="Request body" />
      </details>
    </section>
  )
}
