import type { Key } from 'ink'
import type { Channel } from '../../contract/captured-message.js'
import { INBOUND_CHANNELS, type InboundChannel } from '../../contract/constants.js'
import { printable } from './cells.js'
import { inputOf } from './keymap.js'
import { REQUEST_KINDS, type KeyContext, type Transition, type UiState } from './ui-state.js'
import { FOLLOW, type Selection } from './selection.js'

/**
 * The QA keys of the terminal UI (issue 33, item 3), as pure pieces of the reducer: a simulated
 * reply typed on an SMS or WhatsApp message (`R`), the opt-outs page (`O`, `x` removes), the
 * account filter (`a`), the Requests list's kind filter (`w`: API requests, webhook attempts),
 * and Tab between a message and its request.
 */

const MAX_REPLY = 160
const done = (state: UiState, ...effects: Transition['effects']): Transition => ({ state, effects })

function isInbound(channel: Channel): channel is InboundChannel {
  return (INBOUND_CHANNELS as readonly string[]).includes(channel)
}

/** `R` on a message: starts a reply from the message's other party (its recipient, or a reply's sender). */
export function startReply(state: UiState, ctx: KeyContext): Transition {
  const message = ctx.message
  if (!message) return done(state)
  if (!isInbound(message.channel))
    return done({
      ...state,
      notice: {
        text: `Replies are simulated on ${INBOUND_CHANNELS.join(' and ')} messages; an email has no reply to simulate.`,
        tone: 'error',
      },
    })
  return done({
    ...state,
    replying: { channel: message.channel, from: message.party, account: message.account, text: '' },
  })
}

/** A key while a reply is typed: Enter sends it, Esc cancels, Backspace deletes. */
export function replyKey(state: UiState, input: string, key: Partial<Key>): Transition {
  const draft = state.replying!
  if (key.escape) return done({ ...state, replying: null, notice: { text: 'No reply sent.', tone: 'ok' } })
  if (key.return) {
    const text = draft.text.trim()
    if (text === '')
      return done({ ...state, replying: null, notice: { text: 'An empty reply is not sent.', tone: 'error' } })
    return done(
      { ...state, replying: null },
      { type: 'simulate-reply', channel: draft.channel, from: draft.from, account: draft.account, text },
    )
  }
  if (key.backspace || key.delete)
    return done({ ...state, replying: { ...draft, text: [...draft.text].slice(0, -1).join('') } })
  if (input && !key.ctrl && !key.meta && !key.tab)
    return done({ ...state, replying: { ...draft, text: (draft.text + printable(input)).slice(0, MAX_REPLY) } })
  return done(state)
}

/** `O` anywhere but the help: the opt-outs page, back to where it was opened from. */
export function openOptOuts(state: UiState): Transition {
  if (state.page.kind === 'opt-outs') return done(state)
  const from = state.page.kind === 'help' ? state.page.back : state.page
  if (from.kind === 'opt-outs') return done({ ...state, page: from })
  return done({ ...state, page: { kind: 'opt-outs', back: from }, optOutIndex: 0, scroll: 0 })
}

/** A key on the opt-outs page: move, `x` opts the selected number back in, Esc goes back. */
export function optOutsKey(state: UiState, input: string, key: Partial<Key>, ctx: KeyContext): Transition {
  if (state.page.kind !== 'opt-outs') return done(state)
  const rows = ctx.optOuts
  const index = Math.min(state.optOutIndex, Math.max(0, rows.length - 1))
  if (key.escape || key.backspace || key.leftArrow) return done({ ...state, page: state.page.back, scroll: 0 })
  if (key.upArrow || input === 'k') return done({ ...state, optOutIndex: Math.max(0, index - 1) })
  if (key.downArrow || input === 'j')
    return done({ ...state, optOutIndex: Math.min(Math.max(0, rows.length - 1), index + 1) })
  if (input === inputOf('removeOptOut')) {
    const row = rows[index]
    if (!row) return done({ ...state, notice: { text: 'No opt-out to remove.', tone: 'error' } })
    return done(
      { ...state, optOutIndex: Math.max(0, Math.min(index, rows.length - 2)) },
      { type: 'remove-opt-out', account: row.account, number: row.number },
    )
  }
  return done(state)
}

/** `a` on the Outbox: the next account (all → each configured account → all). */
export function nextAccount(state: UiState, ctx: KeyContext): Transition {
  const cycle: Array<string | null> = [null, ...ctx.accounts]
  const next = cycle[(cycle.indexOf(state.view.account) + 1) % cycle.length]
  return done({ ...state, view: { ...state.view, account: next }, outbox: FOLLOW })
}

/** `w` on Requests: all → API requests → webhook attempts → all. */
export function nextRequestKind(state: UiState): Transition {
  const next = REQUEST_KINDS[(REQUEST_KINDS.indexOf(state.requestKind) + 1) % REQUEST_KINDS.length]
  return done({ ...state, requestKind: next, requests: FOLLOW })
}

/** The selection on one request: its id, placed a few rows down so the rows around it show. */
function selectionOf(id: number, ctx: KeyContext): Selection {
  return {
    follow: false,
    id: String(id),
    index: ctx.requests.index,
    row: Math.min(2, Math.max(0, ctx.requests.rows - 1)),
  }
}

/**
 * Tab from a message lands on its request: the Requests list, every entry shown, that request
 * selected. Without one (the journal let it go, or a reply, which no API request made) Tab just
 * switches, saying so.
 */
export function tabFromMessage(state: UiState, ctx: KeyContext): Transition {
  const base: UiState = { ...state, tab: 'requests', page: { kind: 'list' }, scroll: 0, source: false }
  const id = ctx.message?.requestId
  if (id === undefined)
    return done({
      ...base,
      notice: {
        text: 'This message has no request in the journal (a reply, or one the journal no longer holds).',
        tone: 'ok',
      },
    })
  return done({ ...base, errorsOnly: false, requestKind: 'all', requests: selectionOf(id, ctx) })
}

/** Tab from a request (or webhook attempt) that names a message opens that message. */
export function tabFromRequest(state: UiState, messageId: string | undefined): Transition | null {
  if (messageId === undefined) return null
  return done({ ...state, tab: 'outbox', page: { kind: 'message', id: messageId }, scroll: 0, source: false })
}
