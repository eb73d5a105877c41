import { fitCells, printable } from './cells.js'
import type { FooterContent } from './components/footer.js'
import { grouped } from './format.js'
import { accountText, replyFooter } from './qa-view.js'
import { REQUEST_KIND_LABELS } from './ui-state.js'
import { resetScopeText } from '../../contract/reset-scopes.js'
import { CHANNEL_BADGES } from './channels/index.js'
import type { UiState } from './keys.js'
import { footerKeys } from './keymap.js'
import type { ListWindow } from './selection.js'

/** The footer's notice, if any: which link to copy, the reducer's notice, or server output printed while the UI ran. */
export function noticeOf(state: UiState, unseenConsole: number, consoleLines: readonly string[]): FooterContent | null {
  if (state.confirm || state.searching || state.replying) return null
  if (state.pendingCopyLink) return { kind: 'notice', tone: 'ok', text: 'Copy which link? 1–9 (any other key cancels)' }
  if (state.notice) return { kind: 'notice', ...state.notice }
  if (unseenConsole > 0 && consoleLines.length > 0) {
    return {
      kind: 'notice',
      tone: 'error',
      text: `⚠ ${unseenConsole} server message${unseenConsole === 1 ? '' : 's'} (printed again on exit): ${printable(consoleLines[consoleLines.length - 1])}`,
    }
  }
  return null
}

/** What a confirmation asks: a reset lists everything it clears (the contract's RESET_SCOPES). */
export function questionOf(confirm: NonNullable<UiState['confirm']>): string {
  if (confirm.kind === 'clear') return `Clear all ${grouped(confirm.count)} messages from the outbox?`
  if (confirm.kind === 'reset') return `Reset the sandbox? Clears ${resetScopeText()}.`
  return `Delete ${confirm.id} (to ${printable(confirm.to)})?`
}

/** The footer: a confirmation, the search line, the notice, or the keys of what is on screen. */
export function footerOf(
  state: UiState,
  notice: FooterContent | null,
  pagePosition: string | undefined,
  listPosition: string | undefined,
): FooterContent {
  if (state.confirm) return { kind: 'confirm', question: questionOf(state.confirm) }
  if (state.searching) return { kind: 'search', query: state.view.query }
  if (state.replying) return replyFooter(state.replying)
  if (notice) return notice
  switch (state.page.kind) {
    case 'help':
      return { kind: 'keys', keys: footerKeys('help'), aside: pagePosition }
    case 'message':
      return { kind: 'keys', keys: footerKeys('message'), aside: pagePosition }
    case 'request':
      return { kind: 'keys', keys: footerKeys('request'), aside: pagePosition }
    case 'opt-outs':
      return { kind: 'keys', keys: footerKeys('opt-outs') }
    default:
      return { kind: 'keys', keys: footerKeys(state.tab === 'outbox' ? 'outbox' : 'requests'), aside: listPosition }
  }
}

/** Where the list's selection is (`3 of 120`), if the list has rows. */
export function listPositionOf(listWindow: ListWindow): string | undefined {
  return listWindow.length > 0 ? `${grouped(listWindow.index + 1)} of ${grouped(listWindow.length)}` : undefined
}

/** Which rows of a page show (`1–20 of 300`, `+` while it is still being wrapped), if it does not fit. */
export function pagePositionOf(top: number, height: number, total: number, done: boolean): string | undefined {
  return total > height || !done
    ? `${grouped(top + 1)}–${grouped(Math.min(top + height, total))} of ${grouped(total)}${done ? '' : '+'}`
    : undefined
}

/** What the header says of the list's filters: `SMS only · search "otp" · 3 of 120`. */
export function filterLabelOf(
  state: UiState,
  shown: number,
  all: number,
  width: number,
  labels: ReadonlyMap<string, string>,
): string {
  const parts: string[] = []
  const { view } = state
  if (state.tab === 'outbox') {
    if (view.account) parts.push(`account ${accountText(view.account, labels)}`)
    if (view.channel) parts.push(`${CHANNEL_BADGES[view.channel].label} only`)
    if (view.status) parts.push(view.status)
    if (view.query) parts.push(`search "${view.query}"`)
    if (parts.length > 0) parts.push(`${grouped(shown)} of ${grouped(all)}`)
  } else if (state.errorsOnly || state.requestKind !== 'all') {
    if (state.requestKind !== 'all') parts.push(`${REQUEST_KIND_LABELS[state.requestKind]} only`)
    if (state.errorsOnly) parts.push('errors only')
    parts.push(`${grouped(shown)} of ${grouped(all)}`)
  }
  return fitCells(parts.join(' · '), Math.floor(width * 0.6))
}
