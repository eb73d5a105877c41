/** @jsxImportSource preact */
/** An email: its HTML preview at three widths, text, highlighted source, links and request. */
import { useEffect, useMemo, useState } from 'preact/hooks'
import { hasRemoteContent } from '../../../../domain/remote-content.js'
import { safeText } from '../../../../domain/safe-text.js'
import { call, needsAdminToken } from '../api.js'
import { ChecksPanel } from '../checks-panel.js'
import { HtmlSource } from '../html-source.js'
import { SchemePicker, type PreviewScheme } from '../scheme-picker.js'
import { LinksList } from '../links-list.js'
import { CodesList } from '../message-parts.js'
import type { EmailMessage } from '../types.js'
import { JsonBlock, Tabs } from '../widgets.js'

type EmailTab = 'html' | 'text' | 'source' | 'links' | 'checks' | 'request'
type PreviewWidth = 'desktop' | 'tablet' | 'mobile'
/** The preview's presets: desktop at least 600 px (the pane scrolls when narrower), tablet 768, phone 375. */
const PREVIEW_WIDTHS: [PreviewWidth, string][] = [
  ['desktop', 'Desktop'],
  ['tablet', 'Tablet'],
  ['mobile', 'Phone'],
]

/** The message's preview token, when the sandbox needs the admin token (the iframe cannot send a header). */
function usePreviewToken(id: string): { token: string | null; error: string | null } {
  const [preview, setPreview] = useState<{ token: string | null; error: string | null }>({ token: null, error: null })
  useEffect(() => {
    setPreview({ token: null, error: null })
    if (!needsAdminToken()) return
    const controller = new AbortController()
    call<{ token: string }>(
      'GET',
      `/__sandbox/messages/${encodeURIComponent(id)}/preview`,
      undefined,
      controller.signal,
    )
      .then((answer) => setPreview({ token: answer.token, error: null }))
      .catch((e: Error) => {
        if (e.name !== 'AbortError') setPreview({ token: null, error: e.message })
      })
    return () => controller.abort()
  }, [id])
  return preview
}

export function EmailView({ message }: { message: EmailMessage }) {
  const [tab, setTab] = useState<EmailTab>('html')
  // Kept across tabs: the preview's width, whether remote content was loaded, the preview token.
  const [width, setWidth] = useState<PreviewWidth>('desktop')
  const [remote, setRemote] = useState(false)
  const [scheme, setScheme] = useState<PreviewScheme | null>(null)
  // The source line a check points at (Checks tab → Source tab).
  const [line, setLine] = useState<number | undefined>(undefined)
  useEffect(() => {
    setRemote(false)
    setLine(undefined)
  }, [message.message_id])
  const locate = (at: number) => {
    setLine(at)
    setTab('source')
  }
  const preview = usePreviewToken(message.message_id)
  const tabs: { id: EmailTab; label: string }[] = [
    { id: 'html', label: 'HTML' },
    { id: 'text', label: 'Text' },
    { id: 'source', label: 'Source' },
    { id: 'links', label: `Links (${message.links.length})` },
    { id: 'checks', label: 'Checks' },
    { id: 'request', label: 'Request' },
  ]
  return (
    <section class="email-view">
      <CodesList codes={message.codes} />
      <Tabs<EmailTab> label="Email views" idPrefix="email" tabs={tabs} current={tab} onChange={setTab} />
      <div id="email-panel" role="tabpanel" aria-labelledby={`email-tab-${tab}`} class="panel">
        {tab === 'html' ? (
          <HtmlPreview
            message={message}
            preview={preview}
            width={width}
            setWidth={setWidth}
            remote={remote}
            loadRemote={() => setRemote(true)}
            scheme={scheme}
            setScheme={setScheme}
          />
        ) : tab === 'text' ? (
          <pre class="text-body" tabIndex={0} dir="auto">
            {safeText(message.text) || '(no text)'}
          </pre>
        ) : tab === 'source' ? (
          <HtmlSource html={message.email.html} line={line} />
        ) : tab === 'links' ? (
          <LinksList links={message.links} />
        ) : tab === 'checks' ? (
          <ChecksPanel messageId={message.message_id} channel="email" onLocate={locate} />
        ) : (
          <JsonBlock value={message.request} label="Request body" />
        )}
      </div>
    </section>
  )
}

/** The preview's URL: the token (the iframe cannot send a header), remote content, the colour scheme. */
function previewSrc(
  id: string,
  token: string | null,
  remote: boolean,
  remoteRefs: boolean,
  scheme: PreviewScheme | null,
): string {
  const query = new URLSearchParams()
  if (token) query.set('token', token)
  if (remote) query.set('remote', '1')
  // The toolbar says what is blocked and has the button: the preview's own banner would say it twice.
  else if (remoteRefs) query.set('banner', '0')
  if (scheme) query.set('scheme', scheme)
  return `/__sandbox/messages/${encodeURIComponent(id)}/html${query.size ? `?${query}` : ''}`
}

/** The toolbar's word on remote content: blocked (with the button that loads it), loaded, or nothing when there is none. */
function RemoteNote(props: { remoteRefs: boolean; remote: boolean; loadRemote: () => void }) {
  if (props.remoteRefs && !props.remote)
    return (
      <p class="remote-note" role="status">
        Remote content blocked.{' '}
        <button type="button" class="small" onClick={props.loadRemote}>
          Load remote content
        </button>
      </p>
    )
  return props.remote ? (
    <p class="remote-note" role="status">
      Remote content loaded.
    </p>
  ) : null
}

/** The HTML in a sandboxed iframe at a preset width; remote content blocked until asked for. */
function HtmlPreview(props: {
  message: EmailMessage
  preview: { token: string | null; error: string | null }
  width: PreviewWidth
  setWidth: (width: PreviewWidth) => void
  remote: boolean
  loadRemote: () => void
  scheme: PreviewScheme | null
  setScheme: (scheme: PreviewScheme | null) => void
}) {
  const { message, preview, width, setWidth, remote, scheme } = props
  const remoteRefs = useMemo(() => hasRemoteContent(message.email.html), [message.email.html])
  const src = previewSrc(message.message_id, preview.token, remote, remoteRefs, scheme)
  return (
    <>
      <div class="toolbar">
        <div role="group" aria-label="Preview width" class="segmented">
          {PREVIEW_WIDTHS.map(([id, label]) => (
            <button key={id} type="button" aria-pressed={width === id} onClick={() => setWidth(id)}>
              {label}
            </button>
          ))}
        </div>
        <SchemePicker scheme={scheme} onChange={props.setScheme} />
        <RemoteNote remoteRefs={remoteRefs} remote={remote} loadRemote={props.loadRemote} />
      </div>
      {needsAdminToken() && !preview.token ? (
        <p class={preview.error ? 'error' : 'muted'} role={preview.error ? 'alert' : 'status'}>
          {preview.error
            ? `The preview needs a preview token, which the server refused: ${preview.error}. The Source and Text tabs still work.`
            : 'Opening the preview…'}
        </p>
      ) : (
        <div class={`frame-wrap width-${width}${scheme ? ` scheme-${scheme}` : ''}`}>
          <iframe
            key={src}
            title="Email HTML preview"
            sandbox=""
            src={src}
            referrerpolicy="no-referrer"
            loading="lazy"
          />
        </div>
      )}
    </>
  )
}
