import type { Key } from 'ink'
import type { Channel, MessageStatus } from '../../contract/captured-message.js'
import { MESSAGE_STATUSES } from '../../contract/constants.js'
import { CHANNEL_KEYS, CHANNEL_KEYS_LABEL, inputOf } from './keymap.js'
import { printable } from './cells.js'
import { FOLLOW, selectIndex, type ListWindow, type Selection } from './selection.js'
import {
  nextAccount,
  nextRequestKind,
  openOptOuts,
  optOutsKey,
  replyKey,
  startReply,
  tabFromMessage,
  tabFromRequest,
} from './qa-keys.js'
import type { Action, Confirm, Effect, KeyContext, Transition, UiState } from './ui-state.js'
export { INITIAL_STATE } from './ui-state.js'
export type {
  Action,
  Confirm,
  Effect,
  KeyContext,
  KeyPress,
  Notice,
  OutboxView,
  Page,
  Tab,
  Transition,
  UiState,
} from './ui-state.js'
import { safeText } from '../../domain/safe-text.js'

/**
 * Every key of the terminal UI as one pure function, `(state, action, context) → { state, effects }`:
 * no Ink, no React, no sandbox. What a key does to the world (quit, clear, delete, open a URL,
 * copy to the clipboard) is returned as data, and the App's thin hook runs it. `keys.test.ts`
 * drives it without rendering anything.
 */

const STATUS_CYCLE: ReadonlyArray<MessageStatus | null> = [null, ...MESSAGE_STATUSES]
export { CHANNEL_KEYS, CHANNEL_KEYS_LABEL }
const MAX_QUERY = 200

const done = (state: UiState, ...effects: Effect[]): Transition => ({ state, effects })

/** The next status in the `s` cycle: all → queued → sent → delivered → failed → all. */
export function nextStatus(status: MessageStatus | null): MessageStatus | null {
  return STATUS_CYCLE[(STATUS_CYCLE.indexOf(status) + 1) % STATUS_CYCLE.length]
}

/** The row the page starts at, given the rows known so far. */
export function pageTop(scroll: number, rows: number, height: number): number {
  return Math.max(0, Math.min(scroll, rows - height))
}

function scrollTo(state: UiState, ctx: KeyContext, target: number): UiState {
  const page = ctx.page
  if (!page) return state
  if (target === Infinity) return { ...state, scroll: Infinity }
  return { ...state, scroll: Math.max(0, Math.min(target, Math.max(0, page.rows - page.height))) }
}

function scrollKeys(state: UiState, input: string, key: Partial<Key>, ctx: KeyContext): UiState | null {
  const page = ctx.page
  if (!page) return null
  const top = pageTop(state.scroll, page.rows, page.height)
  const screen = Math.max(1, page.height - 1)
  if (key.upArrow || input === 'k') return scrollTo(state, ctx, top - 1)
  if (key.downArrow || input === 'j') return scrollTo(state, ctx, top + 1)
  if (key.pageUp) return scrollTo(state, ctx, top - screen)
  if (key.pageDown || input === ' ') return scrollTo(state, ctx, top + screen)
  if (key.home || input === 'g') return scrollTo(state, ctx, 0)
  if (key.end || input === 'G') return scrollTo(state, ctx, Infinity)
  return null
}

function moveKeys(selection: Selection, window: ListWindow, input: string, key: Partial<Key>): Selection | null {
  if (key.upArrow || input === 'k') return selectIndex(window, window.index - 1)
  if (key.downArrow || input === 'j') return selectIndex(window, window.index + 1)
  if (key.pageUp) return selectIndex(window, window.index - window.rows)
  if (key.pageDown) return selectIndex(window, window.index + window.rows)
  if (key.home || input === 'g') return FOLLOW
  if (key.end || input === 'G') return selectIndex(window, window.length - 1)
  return null
}

const isBack = (key: Partial<Key>) => Boolean(key.escape || key.backspace || key.delete || key.leftArrow)

function confirmKey(state: UiState, input: string): Transition {
  const confirm = state.confirm!
  const next: UiState = { ...state, confirm: null }
  if (input !== 'y' && input !== 'Y') {
    const text =
      confirm.kind === 'clear' ? 'Kept the outbox.' : confirm.kind === 'reset' ? 'Did not reset.' : 'Kept the message.'
    return done({ ...next, notice: { text, tone: 'ok' } })
  }
  if (confirm.kind === 'clear') {
    return done(
      {
        ...next,
        page: { kind: 'list' },
        outbox: FOLLOW,
        notice: { text: `Outbox cleared (${confirm.count.toLocaleString('en-US')} messages).`, tone: 'ok' },
      },
      { type: 'clear-outbox' },
    )
  }
  if (confirm.kind === 'reset') {
    return done(
      {
        ...next,
        page: { kind: 'list' },
        outbox: FOLLOW,
        requests: FOLLOW,
        notice: { text: 'Resetting the sandbox…', tone: 'ok' },
      },
      { type: 'reset' },
    )
  }
  return done(
    {
      ...next,
      page: { kind: 'list' },
      source: false,
      checks: false,
      notice: { text: `Deleted ${confirm.id} (to ${printable(confirm.to)}).`, tone: 'ok' },
    },
    { type: 'delete-message', id: confirm.id },
  )
}

function searchKey(state: UiState, input: string, key: Partial<Key>): Transition {
  const view = state.view
  if (key.return) return done({ ...state, searching: false })
  if (key.escape) return done({ ...state, searching: false, view: { ...view, query: '' }, outbox: FOLLOW })
  if (key.backspace || key.delete)
    return done({ ...state, view: { ...view, query: [...view.query].slice(0, -1).join('') }, outbox: FOLLOW })
  if (input && !key.ctrl && !key.meta) {
    return done({
      ...state,
      view: { ...view, query: (view.query + printable(input)).slice(0, MAX_QUERY) },
      outbox: FOLLOW,
    })
  }
  return done(state)
}

/** A link or code as the page shows it (see safe-text.ts): what is opened and copied. */
function shownLink(value: string | undefined): string | undefined {
  return value === undefined ? undefined : safeText(value)
}

function linkNumber(input: string): number | null {
  return input.length === 1 && input >= '1' && input <= '9' ? Number(input) : null
}

/** The key after `y` on a message page: a digit copies that link as the page shows it; any other key cancels. */
function pickedLinkKey(state: UiState, input: string, message: KeyContext['message']): Transition {
  const n = linkNumber(input)
  const next = { ...state, pendingCopyLink: false }
  if (n === null) return done({ ...next, notice: { text: 'Copy cancelled.', tone: 'ok' } })
  // Exactly what the page shows (safe-text.ts), never a byte more.
  const url = shownLink(message?.links[n - 1])
  if (!url)
    return done({
      ...next,
      notice: { text: `There is no link ${n} (this message has ${message?.links.length ?? 0}).`, tone: 'error' },
    })
  return done(
    { ...next, notice: { text: `Copied link ${n} to the clipboard (OSC 52): ${url}`, tone: 'ok' } },
    { type: 'copy', text: url, label: `link ${n}` },
  )
}

/** A digit on a message page: opens that link (as the page shows it) in the browser. */
function openLinkKey(state: UiState, n: number, message: NonNullable<KeyContext['message']>): Transition {
  const url = shownLink(message.links[n - 1])
  if (!url)
    return done({
      ...state,
      notice: {
        text:
          message.links.length === 0
            ? 'This message has no links.'
            : `There is no link ${n} (this message has ${message.links.length}).`,
        tone: 'error',
      },
    })
  return done(state, { type: 'open-url', url, label: `link ${n}` })
}

function messageKey(state: UiState, input: string, key: Partial<Key>, ctx: KeyContext): Transition {
  const message = ctx.message
  if (state.pendingCopyLink) return pickedLinkKey(state, input, message)
  if (isBack(key)) return done({ ...state, page: { kind: 'list' }, scroll: 0, source: false, checks: false })
  const scrolled = scrollKeys(state, input, key, ctx)
  if (scrolled) return done(scrolled)
  if (!message) return done(state)
  if (input === inputOf('browser')) {
    if (!message.htmlPreview)
      return done({
        ...state,
        notice: { text: 'Only emails have an HTML preview; v shows what was sent.', tone: 'error' },
      })
    return done(state, { type: 'open-preview', id: message.id })
  }
  const n = linkNumber(input)
  if (n !== null) return openLinkKey(state, n, message)
  if (input === inputOf('copyCode')) {
    const code = shownLink(message.codes[0])
    if (code === undefined) return done({ ...state, notice: { text: 'No code found in this message.', tone: 'error' } })
    return done(
      { ...state, notice: { text: `Copied code ${code} to the clipboard (OSC 52).`, tone: 'ok' } },
      { type: 'copy', text: code, label: 'code' },
    )
  }
  if (input === inputOf('copyLink')) {
    if (message.links.length === 0)
      return done({ ...state, notice: { text: 'This message has no links.', tone: 'error' } })
    return done({ ...state, pendingCopyLink: true })
  }
  if (input === inputOf('source')) return done({ ...state, source: !state.source, checks: false, scroll: 0 })
  if (input === inputOf('checks'))
    return state.checks
      ? done({ ...state, checks: false, scroll: 0 })
      : done({ ...state, checks: true, source: false, scroll: 0 }, { type: 'check-message', id: message.id })
  if (input === inputOf('reply')) return startReply(state, ctx)
  if (input === inputOf('delete'))
    return done({ ...state, confirm: { kind: 'delete', id: message.id, to: message.to } })
  if (input === inputOf('links')) {
    const row = ctx.page?.linksRow
    if (message.links.length === 0)
      return done({ ...state, notice: { text: 'This message has no links.', tone: 'error' } })
    return done(row === undefined ? { ...state, scroll: Infinity } : scrollTo(state, ctx, row))
  }
  return done(state)
}

function outboxListKey(state: UiState, input: string, key: Partial<Key>, ctx: KeyContext): Transition {
  const moved = moveKeys(state.outbox, ctx.outbox, input, key)
  if (moved) return done({ ...state, outbox: moved })
  if (key.return || key.rightArrow) {
    if (ctx.outbox.length === 0) return done(state)
    return done({
      ...state,
      page: { kind: 'message', id: ctx.outbox.idAt(ctx.outbox.index) },
      scroll: 0,
      source: false,
      checks: false,
    })
  }
  if (input in CHANNEL_KEYS)
    return done({ ...state, view: { ...state.view, channel: CHANNEL_KEYS[input] }, outbox: FOLLOW })
  if (input === inputOf('status'))
    return done({ ...state, view: { ...state.view, status: nextStatus(state.view.status) }, outbox: FOLLOW })
  if (input === inputOf('search')) return done({ ...state, searching: true })
  const { view } = state
  if (input === inputOf('account')) return nextAccount(state, ctx)
  if (key.escape && (view.query !== '' || view.channel !== null || view.status !== null || view.account !== null)) {
    return done({ ...state, view: { channel: null, status: null, query: '', account: null }, outbox: FOLLOW })
  }
  return done(state)
}

function requestsListKey(state: UiState, input: string, key: Partial<Key>, ctx: KeyContext): Transition {
  const moved = moveKeys(state.requests, ctx.requests, input, key)
  if (moved) return done({ ...state, requests: moved })
  if (key.return || key.rightArrow) {
    if (ctx.requests.length === 0) return done(state)
    return done({ ...state, page: { kind: 'request', id: Number(ctx.requests.idAt(ctx.requests.index)) }, scroll: 0 })
  }
  if (input === inputOf('errorsOnly')) return done({ ...state, errorsOnly: !state.errorsOnly, requests: FOLLOW })
  if (input === inputOf('requestKind')) return nextRequestKind(state)
  if (key.escape && (state.errorsOnly || state.requestKind !== 'all'))
    return done({ ...state, errorsOnly: false, requestKind: 'all', requests: FOLLOW })
  return done(state)
}

/** What one key does. */
export function reduceKey(state: UiState, input: string, key: Partial<Key>, ctx: KeyContext): Transition {
  if (key.ctrl && input === 'c') return done(state, { type: 'quit' })
  if (state.confirm) return confirmKey(state, input)
  if (state.searching) return searchKey(state, input, key)
  if (state.replying) return replyKey(state, input, key)

  // Any other key dismisses the last notice and marks console output as seen.
  const base: UiState = { ...state, notice: null, consoleSeen: ctx.consoleCount }

  if (base.page.kind === 'help') {
    if (input === inputOf('quit')) return done(base, { type: 'quit' })
    const scrolled = scrollKeys(base, input, key, ctx)
    if (scrolled && !isBack(key)) return done(scrolled)
    return done({ ...base, page: base.page.back, scroll: 0 })
  }
  if (!base.pendingCopyLink) {
    if (input === inputOf('quit')) return done(base, { type: 'quit' })
    if (input === inputOf('help')) return done({ ...base, page: { kind: 'help', back: base.page }, scroll: 0 })
    if (key.tab && base.page.kind === 'message') return tabFromMessage(base, ctx)
    if (key.tab)
      return (
        (base.page.kind === 'request' ? tabFromRequest(base, ctx.requestMessageId) : null) ??
        done({
          ...base,
          tab: base.tab === 'outbox' ? 'requests' : 'outbox',
          page: { kind: 'list' },
          scroll: 0,
          source: false,
        })
      )
    if (input === inputOf('optOuts')) return openOptOuts(base)
    // On a message page `c` is its Checks page (the same letter as the lists' clear).
    if (input === inputOf('clear') && base.page.kind !== 'message')
      return done({ ...base, confirm: { kind: 'clear', count: ctx.outboxSize } })
    if (input === inputOf('reset')) return done({ ...base, confirm: { kind: 'reset' } })
  }
  if (base.page.kind === 'opt-outs') return optOutsKey(base, input, key, ctx)
  if (base.page.kind === 'message') return messageKey(base, input, key, ctx)
  if (base.page.kind === 'request') {
    if (isBack(key)) return done({ ...base, page: { kind: 'list' }, scroll: 0 })
    return done(scrollKeys(base, input, key, ctx) ?? base)
  }
  return base.tab === 'outbox' ? outboxListKey(base, input, key, ctx) : requestsListKey(base, input, key, ctx)
}

/** The reducer: keys, and the notices and resets that effects report back. */
export function reduce(state: UiState, action: Action, ctx: KeyContext): Transition {
  switch (action.type) {
    case 'key':
      return reduceKey(state, action.input, action.key, ctx)
    case 'notice':
      return done({ ...state, notice: action.notice })
    case 'lists-reset':
      return done({ ...state, outbox: FOLLOW, requests: FOLLOW })
  }
}
