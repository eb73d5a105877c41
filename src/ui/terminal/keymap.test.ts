import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { helpLines } from './help.js'
import { INITIAL_STATE, reduceKey, type KeyContext, type UiState } from './keys.js'
import { BINDINGS, footerKeys, keysTable, type Binding } from './keymap.js'
import { windowOf } from './selection.js'

/**
 * One key map (keymap.ts) for the reducer, the help page, the footers and docs/terminal-ui.md: each
 * one-character binding does something where its group says, the help page shows every binding,
 * and the page's table is the generated one.
 */
const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)
const MESSAGE = {
  id: 'msg_1',
  to: 'ana@example.com',
  channel: 'email' as const,
  htmlPreview: true,
  links: ['https://a.test/1'],
  codes: ['482913'],
  account: 'acct_1',
  party: 'ana@example.com',
  requestId: 1,
}
/** `R` simulates a reply to an SMS or WhatsApp message only. */
const SMS = {
  ...MESSAGE,
  id: 'msg_2',
  to: '+14155550123',
  channel: 'sms' as const,
  htmlPreview: false,
  party: '+14155550123',
}

function contextFor(state: UiState): KeyContext {
  return {
    outbox: windowOf(state.outbox, ids(5, 'msg_'), (id) => id, 10),
    requests: windowOf(state.requests, ids(3, ''), (id) => id, 10),
    page: state.page.kind === 'list' ? null : { rows: 100, height: 20, done: true, linksRow: 90 },
    message: state.page.kind === 'message' ? (state.page.id === SMS.id ? SMS : MESSAGE) : undefined,
    outboxSize: 5,
    consoleCount: 0,
    accounts: ['acct_1', 'acct_2'],
    optOuts: [{ account: 'acct_1', number: '+14155550123', keyword: 'STOP', at: '2026-11-21T12:00:00.000Z' }],
  }
}

/** A state where a group's keys work: the outbox (or the requests tab for `e`), a message page, a request page. */
function stateFor(id: string, binding: Binding): UiState {
  if (binding.group === 'Message')
    return { ...INITIAL_STATE, page: { kind: 'message', id: id === 'reply' ? SMS.id : 'msg_1' } }
  if (binding.group === 'Request') return { ...INITIAL_STATE, page: { kind: 'request', id: 1 } }
  if (binding.group === 'Opt-outs') return { ...INITIAL_STATE, page: { kind: 'opt-outs', back: { kind: 'list' } } }
  return id === 'errorsOnly' || id === 'requestKind' ? { ...INITIAL_STATE, tab: 'requests' } : INITIAL_STATE
}

describe('the key map', () => {
  it('each one-character binding changes the state or asks for an effect where its group says', () => {
    const idle: string[] = []
    for (const [id, raw] of Object.entries(BINDINGS)) {
      const binding: Binding = raw
      if (binding.input === undefined) continue
      const state = stateFor(id, binding)
      const { state: next, effects } = reduceKey(state, binding.input, {}, contextFor(state))
      if (next === state && effects.length === 0) idle.push(`${id} (${binding.input})`)
    }
    expect(idle).toEqual([])
  })

  it("the help page shows every binding, and every footer key is a binding's", () => {
    const help = helpLines(200)
      .map((row) => row.map((s) => s.text).join(''))
      .join('\n')
    for (const binding of Object.values(BINDINGS) as Binding[]) {
      expect(help).toContain(binding.keys)
      expect(help).toContain(binding.help)
    }
    const shown = new Set((Object.values(BINDINGS) as Binding[]).flatMap((b) => [b.short ?? b.keys, b.keys]))
    for (const view of ['outbox', 'requests', 'message', 'request', 'opt-outs'] as const) {
      for (const [key] of footerKeys(view)) expect(shown.has(key), `${view}: ${key}`).toBe(true)
    }
  })

  it('the key table of docs/terminal-ui.md is the generated one (npm run docs:tables)', () => {
    const page = readFileSync(new URL('../../../docs/terminal-ui.md', import.meta.url), 'utf8')
    const block = /<!-- keys:begin -->\n([\s\S]*?)\n<!-- keys:end -->/.exec(page)
    expect(block?.[1]).toBe(keysTable())
  })
})
