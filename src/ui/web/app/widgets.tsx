/** @jsxImportSource preact */
/** Small shared pieces: badges, dialogs (confirmation, admin token), tabs, copy buttons. */
import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { safeText } from '../../../domain/safe-text.js'
import { fullTime, prettyJson } from './format.js'
import { Store, useStore } from './state.js'
import { CHANNEL_LABELS, type Channel, type MessageStatus, type StatusChange } from './types.js'

/**
 * A string from a message as the inbox shows it: what the terminal UI would not print either
 * (escape sequences, controls, bidi controls, invisible fillers: src/domain/safe-text.ts) shown as
 * one U+FFFD per run, and the whole isolated in a `<bdi>` so its direction cannot reorder the
 * text around it.
 */
export function Shown({ text }: { text: string }) {
  return <bdi>{safeText(text)}</bdi>
}

/** An email sender (`name <address>`, each isolated on its own: a name cannot reorder the address) or an SMS sender id. */
export function Sender({ from }: { from: { email: string; name: string | null } | string }) {
  if (typeof from === 'string') return <Shown text={from} />
  if (!from.name) return <Shown text={from.email} />
  return (
    <>
      <Shown text={from.name} /> &lt;
      <Shown text={from.email} />
      &gt;
    </>
  )
}

export function StatusBadge({ status }: { status: MessageStatus | string }) {
  return <span class={`badge status-${status}`}>{status}</span>
}

export function ChannelTag({ channel }: { channel: Channel }) {
  return <span class={`channel channel-${channel}`}>{CHANNEL_LABELS[channel]}</span>
}

export function StatusHistory({ history }: { history: StatusChange[] }) {
  return (
    <section aria-label="Status history" class="history">
      <h3>Status history</h3>
      <ol>
        {history.map((step, i) => (
          <li key={i}>
            <StatusBadge status={step.status} /> <time dateTime={step.at}>{fullTime(step.at)}</time>
            {step.reason ? (
              <span class="reason">
                {' — '}
                <Shown text={step.reason} />
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  )
}

export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre class="code" aria-label={label} tabIndex={0}>
      {prettyJson(value)}
    </pre>
  )
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      setCopied(false)
    }
  }
  return (
    <button type="button" class="small" onClick={copy} aria-label={label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  )
}

/** Accessible tabs: arrow keys move between them, the panel follows. */
export function Tabs<T extends string>(props: {
  label: string
  tabs: { id: T; label: string }[]
  current: T
  onChange(id: T): void
  idPrefix: string
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({})
  const onKey = (event: KeyboardEvent) => {
    const index = props.tabs.findIndex((t) => t.id === props.current)
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    event.preventDefault()
    const next = props.tabs[(index + step + props.tabs.length) % props.tabs.length]
    props.onChange(next.id)
    refs.current[next.id]?.focus()
  }
  return (
    <div role="tablist" aria-label={props.label} class="tabs" onKeyDown={onKey}>
      {props.tabs.map((tab) => (
        <button
          key={tab.id}
          ref={(el) => {
            refs.current[tab.id] = el
          }}
          role="tab"
          type="button"
          id={`${props.idPrefix}-tab-${tab.id}`}
          aria-selected={tab.id === props.current}
          aria-controls={`${props.idPrefix}-panel`}
          tabIndex={tab.id === props.current ? 0 : -1}
          onClick={() => props.onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

interface DialogRequest {
  title: string
  body: ComponentChildren
  action: string
  danger?: boolean
  /** A password field (the admin token). */
  input?: { label: string; error?: string }
  resolve(answer: string | null): void
}

const dialog = new Store<DialogRequest | null>(null)

/** Asks the user to confirm a state change; resolves true when confirmed. */
export function confirmAction(title: string, body: ComponentChildren, action: string): Promise<boolean> {
  return new Promise((resolve) =>
    dialog.set({ title, body, action, danger: true, resolve: (answer) => resolve(answer !== null) }),
  )
}

/** Asks for the admin token; resolves with it, or null when cancelled. */
export function promptToken(retry: boolean): Promise<string | null> {
  return new Promise((resolve) =>
    dialog.set({
      title: 'Admin or team token required',
      body: 'This sendbox protects its /__sandbox controls with a token: the admin token (--admin-token) sees every account, a team token (--team-token) its own accounts only. It is kept in this tab only (sessionStorage) and sent as a header, never in a URL.',
      action: 'Use token',
      input: {
        label: 'Admin or team token',
        error: retry ? 'That token was refused. Check it and try again.' : undefined,
      },
      resolve,
    }),
  )
}

/** The one modal dialog of the page (a native <dialog>: focus trapped, Escape cancels). */
export function DialogHost() {
  const request = useStore(dialog)
  const ref = useRef<HTMLDialogElement>(null)
  const [value, setValue] = useState('')
  useEffect(() => {
    const element = ref.current
    if (!element) return
    if (request && !element.open) {
      setValue('')
      element.showModal()
    }
    if (!request && element.open) element.close()
  }, [request])
  const finish = (answer: string | null) => {
    const current = dialog.get()
    dialog.set(null)
    current?.resolve(answer)
  }
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby="dialog-title"
      onCancel={(event) => {
        event.preventDefault()
        finish(null)
      }}
    >
      {request ? (
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault()
            finish(request.input ? value : 'ok')
          }}
        >
          <h2 id="dialog-title">{request.title}</h2>
          <div class="dialog-body">{request.body}</div>
          {request.input ? <DialogField input={request.input} value={value} setValue={setValue} /> : null}
          <DialogActions request={request} cancel={() => finish(null)} />
        </form>
      ) : null}
    </dialog>
  )
}

/** The dialog's password field (the admin token), and why the last one was refused. */
function DialogField(props: {
  input: NonNullable<DialogRequest['input']>
  value: string
  setValue: (value: string) => void
}) {
  const { input } = props
  return (
    <label class="field">
      <span>{input.label}</span>
      <input
        type="password"
        autoComplete="off"
        value={props.value}
        onInput={(e) => props.setValue(e.currentTarget.value)}
        autoFocus
        required
      />
      {input.error ? (
        <span class="error" role="alert">
          {input.error}
        </span>
      ) : null}
    </label>
  )
}

/** Cancel, and the action (submits the form; focused first when there is no field to type in). */
function DialogActions({ request, cancel }: { request: DialogRequest; cancel: () => void }) {
  return (
    <div class="dialog-actions">
      <button type="button" onClick={cancel}>
        Cancel
      </button>
      <button type="submit" class={request.danger ? 'danger' : 'primary'} autoFocus={!request.input}>
        {request.action}
      </button>
    </div>
  )
}
