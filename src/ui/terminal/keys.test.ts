import { describe, expect, it } from 'vitest'
import { INITIAL_STATE, nextStatus, reduce, reduceKey, type KeyContext, type UiState } from './keys.js'
import { windowOf } from './selection.js'

// The key reducer on its own: no Ink, no React, no sandbox. A context is the facts of one render.
const ids = (n: number, prefix = 'msg_') => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

function ctx(
  over: Partial<KeyContext> = {},
  state: UiState = INITIAL_STATE,
  messages = ids(5),
  requests = ids(3, ''),
): KeyContext {
  return {
    outbox: windowOf(state.outbox, messages, (id) => id, 10),
    requests: windowOf(state.requests, requests, (id) => id, 10),
    page: null,
    outboxSize: messages.length,
    consoleCount: 0,
    accounts: ['acct_1', 'acct_2'],
    optOuts: [],
    ...over,
  }
}

/** Presses keys one after another, each against a context rebuilt from the state so far. */
function press(
  keys: Array<string | { [flag: string]: true }>,
  start: UiState = INITIAL_STATE,
  over: (s: UiState) => Partial<KeyContext> = () => ({}),
) {
  let state = start
  const effects = []
  for (const k of keys) {
    const [input, key] = typeof k === 'string' ? [k, {}] : ['', k]
    const t = reduceKey(state, input, key, ctx(over(state), state))
    state = t.state
    effects.push(...t.effects)
  }
  return { state, effects }
}

const MESSAGE = {
  id: 'msg_1',
  to: 'ana@example.com',
  channel: 'email' as const,
  htmlPreview: true,
  links: ['https://a.test/1', 'https://b.test/2'],
  codes: ['482913', '777'],
  account: 'acct_1',
  party: 'ana@example.com',
}
const onMessage: UiState = { ...INITIAL_STATE, page: { kind: 'message', id: 'msg_1' } }
const messagePage = (s: UiState): Partial<KeyContext> => ({
  message: MESSAGE,
  page: { rows: 100, height: 20, done: true, linksRow: 90 },
  ...(s ? {} : {}),
})

describe('list keys', () => {
  it('j/k and arrows move, g/G jump, and the top row follows new arrivals', () => {
    let { state } = press(['j', 'j'])
    expect(state.outbox).toMatchObject({ follow: false, id: 'msg_2', index: 2 })
    state = press([{ upArrow: true }], state).state
    expect(state.outbox.id).toBe('msg_1')
    state = press(['G'], state).state
    expect(state.outbox.id).toBe('msg_4')
    state = press(['g'], state).state
    expect(state.outbox.follow).toBe(true)
  })

  it('Enter opens the selected message; Esc, Backspace or ← goes back', () => {
    const { state } = press(['j', { return: true }])
    expect(state.page).toEqual({ kind: 'message', id: 'msg_1' })
    for (const back of [{ escape: true }, { backspace: true }, { leftArrow: true }] as Array<{
      [flag: string]: true
    }>) {
      expect(press([back], state, messagePage).state.page).toEqual({ kind: 'list' })
    }
  })

  it('1 2 3 0 pick a channel and s cycles the status: all, queued, sent, delivered, failed, all', () => {
    expect(press(['2']).state.view.channel).toBe('sms')
    expect(press(['2', '0']).state.view.channel).toBe(null)
    const seen = []
    let state = INITIAL_STATE
    for (let i = 0; i < 5; i++) {
      state = press(['s'], state).state
      seen.push(state.view.status)
    }
    expect(seen).toEqual(['queued', 'sent', 'delivered', 'failed', null])
    expect(nextStatus('failed')).toBe(null)
    // Esc clears every filter at once.
    const filtered = press(['3', 's', '/', 'x', { return: true }]).state
    expect(filtered.view).toEqual({ channel: 'whatsapp', status: 'queued', query: 'x', account: null })
    expect(press([{ escape: true }], filtered).state.view).toEqual({
      channel: null,
      status: null,
      query: '',
      account: null,
    })
  })

  it('/ types a search: text goes in (control characters neutralised), Backspace deletes, Enter keeps, Esc clears', () => {
    let { state } = press(['/', 'b', 'o', 'b', 'x', { backspace: true }])
    expect(state.searching).toBe(true)
    expect(state.view.query).toBe('bob')
    // Keys are text while searching: q does not quit.
    const typed = press(['q'], state)
    expect(typed.state.view.query).toBe('bobq')
    expect(typed.effects).toEqual([])
    state = press([{ return: true }], state).state
    expect(state).toMatchObject({ searching: false, view: { query: 'bob' } })
    expect(press(['/', '\u001b[2J'], INITIAL_STATE).state.view.query).toBe('\ufffd')
    expect(press(['/', 'a', { escape: true }]).state).toMatchObject({ searching: false, view: { query: '' } })
  })

  it('Requests: Enter opens an entry, e toggles errors only', () => {
    const tab = press([{ tab: true }]).state
    expect(tab.tab).toBe('requests')
    expect(press([{ return: true }], tab).state.page).toEqual({ kind: 'request', id: 0 })
    const errors = press(['e'], tab).state
    expect(errors.errorsOnly).toBe(true)
    expect(press(['e'], errors).state.errorsOnly).toBe(false)
    expect(press([{ escape: true }], errors).state.errorsOnly).toBe(false)
  })

  it('c and r ask first; only y does it, as an effect', () => {
    const asked = press(['c'])
    expect(asked.state.confirm).toEqual({ kind: 'clear', count: 5 })
    expect(asked.effects).toEqual([])
    expect(press(['n'], asked.state)).toMatchObject({
      state: { confirm: null, notice: { text: 'Kept the outbox.' } },
      effects: [],
    })
    expect(press(['y'], asked.state).effects).toEqual([{ type: 'clear-outbox' }])
    expect(press(['r', 'y']).effects).toEqual([{ type: 'reset' }])
    expect(press(['r', 'x']).state.notice?.text).toBe('Did not reset.')
  })

  it('q and Ctrl-C quit; Ctrl-C even while searching or asked a question', () => {
    expect(press(['q']).effects).toEqual([{ type: 'quit' }])
    expect(press(['/', 'a']).effects).toEqual([])
    const searching = press(['/', 'a']).state
    expect(reduceKey(searching, 'c', { ctrl: true }, ctx()).effects).toEqual([{ type: 'quit' }])
    expect(reduceKey(press(['c']).state, 'c', { ctrl: true }, ctx()).effects).toEqual([{ type: 'quit' }])
  })

  it('? opens the help over the current page and any other key goes back to it', () => {
    const help = press(['?'], onMessage, messagePage).state
    expect(help.page).toEqual({ kind: 'help', back: { kind: 'message', id: 'msg_1' } })
    expect(press(['x'], help, messagePage).state.page).toEqual({ kind: 'message', id: 'msg_1' })
  })

  it('any key dismisses a notice and marks console lines as seen', () => {
    const noticed = reduce(INITIAL_STATE, { type: 'notice', notice: { text: 'hi', tone: 'ok' } }, ctx()).state
    expect(noticed.notice?.text).toBe('hi')
    const next = reduceKey(noticed, 'j', {}, { ...ctx(), consoleCount: 3 }).state
    expect(next.notice).toBe(null)
    expect(next.consoleSeen).toBe(3)
  })
})

describe('message keys', () => {
  it('scroll within the rows, G sticks to the end while rows are still being wrapped', () => {
    let { state } = press(['j', 'j', { pageDown: true }], onMessage, messagePage)
    expect(state.scroll).toBe(2 + 19)
    state = press(['G'], state, messagePage).state
    expect(state.scroll).toBe(Infinity)
    state = press(['k'], state, messagePage).state
    expect(state.scroll).toBe(79)
    expect(press(['g'], state, messagePage).state.scroll).toBe(0)
    expect(press(['l'], onMessage, messagePage).state.scroll).toBe(80)
  })

  it('o opens the email preview; 1–9 open link N; a missing link says so', () => {
    expect(press(['o'], onMessage, messagePage).effects).toEqual([{ type: 'open-preview', id: 'msg_1' }])
    expect(press(['2'], onMessage, messagePage).effects).toEqual([
      { type: 'open-url', url: 'https://b.test/2', label: 'link 2' },
    ])
    const none = press(['7'], onMessage, messagePage)
    expect(none.effects).toEqual([])
    expect(none.state.notice).toEqual({ text: 'There is no link 7 (this message has 2).', tone: 'error' })
    const sms = press(['o'], onMessage, () => ({
      ...messagePage(onMessage),
      message: { ...MESSAGE, channel: 'sms', htmlPreview: false },
    }))
    expect(sms.effects).toEqual([])
    expect(sms.state.notice?.text).toMatch(/Only emails have an HTML preview/)
  })

  it('y copies the first code; Y then a digit copies that link; the footer says what was copied', () => {
    const code = press(['y'], onMessage, messagePage)
    expect(code.effects).toEqual([{ type: 'copy', text: '482913', label: 'code' }])
    expect(code.state.notice?.text).toBe('Copied code 482913 to the clipboard (OSC 52).')
    const waiting = press(['Y'], onMessage, messagePage)
    expect(waiting.state.pendingCopyLink).toBe(true)
    // While waiting for the digit, q and c are not commands.
    const link = press(['2'], waiting.state, messagePage)
    expect(link.effects).toEqual([{ type: 'copy', text: 'https://b.test/2', label: 'link 2' }])
    expect(link.state.notice?.text).toBe('Copied link 2 to the clipboard (OSC 52): https://b.test/2')
    expect(press(['q'], waiting.state, messagePage)).toMatchObject({
      effects: [],
      state: { pendingCopyLink: false, notice: { text: 'Copy cancelled.' } },
    })
    const noCodes = press(['y'], onMessage, () => ({ ...messagePage(onMessage), message: { ...MESSAGE, codes: [] } }))
    expect(noCodes.effects).toEqual([])
    expect(noCodes.state.notice?.text).toBe('No code found in this message.')
  })

  it('v toggles the source and starts at the top; d deletes after y', () => {
    const source = press(['j', 'v'], onMessage, messagePage).state
    expect(source).toMatchObject({ source: true, scroll: 0 })
    expect(press(['v'], source, messagePage).state.source).toBe(false)
    const asked = press(['d'], onMessage, messagePage)
    expect(asked.state.confirm).toEqual({ kind: 'delete', id: 'msg_1', to: 'ana@example.com' })
    expect(press(['n'], asked.state, messagePage)).toMatchObject({
      effects: [],
      state: { page: { kind: 'message' }, notice: { text: 'Kept the message.' } },
    })
    const deleted = press(['y'], asked.state, messagePage)
    expect(deleted.effects).toEqual([{ type: 'delete-message', id: 'msg_1' }])
    expect(deleted.state.page).toEqual({ kind: 'list' })
  })

  it('message keys do nothing once the message is gone, but Esc still goes back', () => {
    const gone = () => ({ page: { rows: 1, height: 20, done: true } })
    expect(press(['o', '1', 'y', 'd'], onMessage, gone)).toMatchObject({ effects: [], state: { confirm: null } })
    expect(press([{ escape: true }], onMessage, gone).state.page).toEqual({ kind: 'list' })
  })
})

describe('QA keys (issue 33)', () => {
  const sms = {
    ...MESSAGE,
    channel: 'sms' as const,
    htmlPreview: false,
    to: '+14155550123',
    party: '+14155550123',
    requestId: 2,
  }
  const onSms = (s: UiState): Partial<KeyContext> => ({ ...messagePage(s), message: sms })

  it('R types a reply on an SMS and Enter asks to simulate it; Esc cancels; an email has none', () => {
    const { state, effects } = press(['R', 'S', 'T', 'O', 'P', { return: true }], onMessage, onSms)
    expect(effects).toEqual([
      { type: 'simulate-reply', channel: 'sms', from: '+14155550123', account: 'acct_1', text: 'STOP' },
    ])
    expect(state.replying).toBeNull()
    expect(press(['R', 'x', { escape: true }], onMessage, onSms).effects).toEqual([])
    expect(press(['R'], onMessage, messagePage).state.notice?.text).toMatch(/email has no reply/)
  })

  it('O opens the opt-outs, x opts the selected number back in, Esc goes back', () => {
    const optOuts = [
      { account: 'acct_1', number: '+14155550123', keyword: 'STOP', at: '' },
      { account: 'acct_2', number: '+14155550999', keyword: 'QUIT', at: '' },
    ]
    const { state, effects } = press(['O', 'j', 'x'], INITIAL_STATE, () => ({
      optOuts,
      page: { rows: 5, height: 20, done: true },
    }))
    expect(effects).toEqual([{ type: 'remove-opt-out', account: 'acct_2', number: '+14155550999' }])
    expect(state.page.kind).toBe('opt-outs')
    expect(press([{ escape: true }], state).state.page).toEqual({ kind: 'list' })
  })

  it('Tab from a message selects its request in an unfiltered Requests list; Tab from a request opens its message', () => {
    const filtered: UiState = { ...onMessage, errorsOnly: true, requestKind: 'webhook' }
    const { state } = press([{ tab: true }], filtered, onSms)
    expect(state).toMatchObject({
      tab: 'requests',
      page: { kind: 'list' },
      errorsOnly: false,
      requestKind: 'all',
      requests: { follow: false, id: '2' },
    })
    expect(ctx({}, state).requests.index).toBe(2)
    const onRequest: UiState = { ...INITIAL_STATE, tab: 'requests', page: { kind: 'request', id: 2 } }
    expect(press([{ tab: true }], onRequest, () => ({ requestMessageId: 'msg_9' })).state).toMatchObject({
      tab: 'outbox',
      page: { kind: 'message', id: 'msg_9' },
    })
  })

  it('a cycles the accounts on the Outbox, w the request kinds on Requests, Esc clears both', () => {
    let state = press(['a'], INITIAL_STATE).state
    expect(state.view.account).toBe('acct_1')
    state = press(['a', 'a'], state).state
    expect(state.view.account).toBeNull()
    state = press(['a', { escape: true }], state).state
    expect(state.view.account).toBeNull()
    const requests: UiState = { ...INITIAL_STATE, tab: 'requests' }
    expect(press(['w'], requests).state.requestKind).toBe('api')
    expect(press(['w', 'w'], requests).state.requestKind).toBe('webhook')
    expect(press(['w', { escape: true }], requests).state.requestKind).toBe('all')
  })
})
