import type { Key } from 'ink'
import type { Channel, MessageStatus } from '../../contract/captured-message.js'
import type { InboundChannel } from '../../contract/constants.js'
import { FOLLOW, type ListWindow, type Selection } from './selection.js'

/**
 * The terminal UI's state and what the reducer (keys.ts, qa-keys.ts) reads and returns: plain
 * data, no Ink, no React.
 */

/** The two lists Tab switches between. */
export type Tab = 'outbox' | 'requests'

/** What fills the body: a list, one message, one journal entry, or the help. */
export type Page =
  | { kind: 'list' }
  | { kind: 'message'; id: string }
  | { kind: 'request'; id: number }
  | { kind: 'help'; back: Exclude<Page, { kind: 'help' }> }
  /** The numbers opted out (`O`), back to where it was opened from. */
  | { kind: 'opt-outs'; back: Exclude<Page, { kind: 'help' } | { kind: 'opt-outs' }> }

/** What the outbox list is narrowed to. */
export interface OutboxView {
  channel: Channel | null
  status: MessageStatus | null
  /** Case-insensitive text searched in recipient, sender, subject, body text, template and parameters; '' for none. */
  query: string
  /** Only this account's messages (`a`); null for every account. */
  account: string | null
}

export type Confirm = { kind: 'clear'; count: number } | { kind: 'reset' } | { kind: 'delete'; id: string; to: string }

export interface Notice {
  text: string
  tone: 'ok' | 'error'
}

/** Everything the UI remembers between keys. */
export interface UiState {
  tab: Tab
  page: Page
  /** First row shown of the open page; `Infinity` sticks to the end while more rows are wrapped. */
  scroll: number
  view: OutboxView
  searching: boolean
  /** The Requests list shows only errors (status ≥ 400 or an error code). */
  errorsOnly: boolean
  /** The message page shows the source (email HTML, or the request as sent) instead of the text. */
  source: boolean
  /** The message page shows its Checks page (`c`) instead of the text. */
  checks: boolean
  confirm: Confirm | null
  /** After `Y`: the next digit copies that link. */
  pendingCopyLink: boolean
  notice: Notice | null
  /** Console lines the user has seen (any key marks those so far as seen; the footer flags newer ones). */
  consoleSeen: number
  outbox: Selection
  requests: Selection
  /** A simulated reply being typed (`R` on an SMS or WhatsApp message). */
  replying: ReplyDraft | null
  /** The selected row of the opt-outs page. */
  optOutIndex: number
  /** The Requests list's kind filter (`w`). */
  requestKind: RequestKind
}

/** The Requests list's kinds: every entry, API requests only, webhook attempts only. */
export const REQUEST_KINDS = ['all', 'api', 'webhook'] as const
export type RequestKind = (typeof REQUEST_KINDS)[number]
export const REQUEST_KIND_LABELS: Record<RequestKind, string> = {
  all: 'all',
  api: 'API requests',
  webhook: 'webhook attempts',
}

/** A reply being typed: who replies (the message's other party), on which channel, to which account. */
export interface ReplyDraft {
  channel: InboundChannel
  from: string
  account: string
  text: string
}

/** An opt-out as the page lists it. */
export interface OptOutRow {
  account: string
  number: string
  keyword: string
  at: string
}

export const INITIAL_STATE: UiState = {
  tab: 'outbox',
  page: { kind: 'list' },
  scroll: 0,
  view: { channel: null, status: null, query: '', account: null },
  searching: false,
  errorsOnly: false,
  source: false,
  checks: false,
  confirm: null,
  pendingCopyLink: false,
  notice: null,
  consoleSeen: 0,
  outbox: FOLLOW,
  requests: FOLLOW,
  replying: null,
  optOutIndex: 0,
  requestKind: 'all',
}

/** What a key does outside the UI state; the App runs these. */
export type Effect =
  | { type: 'quit' }
  | { type: 'clear-outbox' }
  | { type: 'reset' }
  | { type: 'delete-message'; id: string }
  /** Open the email's HTML preview (`/__sandbox/messages/{id}/html?token=…`) in the browser. */
  | { type: 'open-preview'; id: string }
  /** Compute the open message's check report (the Checks page shows it when it is ready). */
  | { type: 'check-message'; id: string }
  | { type: 'open-url'; url: string; label: string }
  /** Put text on the clipboard (OSC 52). */
  | { type: 'copy'; text: string; label: string }
  /** Simulate a reply (`POST /__sandbox/inbound`, in-process). */
  | { type: 'simulate-reply'; channel: InboundChannel; from: string; account: string; text: string }
  /** Opt a number back in (`DELETE /__sandbox/opt-outs`, in-process). */
  | { type: 'remove-opt-out'; account: string; number: string }

/** The facts a key needs from the current render: list windows, the open page, the open message. */
export interface KeyContext {
  outbox: ListWindow
  requests: ListWindow
  /** The open page's rows so far and the rows the body shows; `done` once every row is wrapped. */
  page: { rows: number; height: number; done: boolean; linksRow?: number } | null
  /** The open message, when the page is a message still in the outbox. */
  /** The open message; `htmlPreview` when its channel has HTML a browser can show (`o`). */
  message?: {
    id: string
    to: string
    channel: Channel
    htmlPreview: boolean
    links: readonly string[]
    codes: readonly string[]
    account: string
    /** Who would reply: the recipient of a sent message, the sender of a reply. */
    party: string
    /** The journal entry of the API request that sent it, while the journal holds it. */
    requestId?: number
  }
  /** The open request's message (an accepted send's, or the one a webhook attempt is about). */
  requestMessageId?: string
  /** Every configured account, in key order (`a` cycles through them). */
  accounts: readonly string[]
  /** The opted-out numbers, as the opt-outs page lists them. */
  optOuts: readonly OptOutRow[]
  outboxSize: number
  /** Console lines written so far. */
  consoleCount: number
}

/** A key as Ink reports it: the text typed and the flags of special keys. */
export interface KeyPress {
  input: string
  key: Partial<Key>
}

export type Action =
  | { type: 'key'; input: string; key: Partial<Key> }
  /** A notice from an effect that finished later (reset done, no browser found). */
  | { type: 'notice'; notice: Notice }
  /** The outbox was cleared or reset from the UI: back to the top of the lists. */
  | { type: 'lists-reset' }

export interface Transition {
  state: UiState
  effects: Effect[]
}
