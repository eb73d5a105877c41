import { wrapRows } from './cells.js'
import { seg, type StyledLine } from './page.js'
import { CHANNEL_LABELS } from '../../domain/channels/index.js'
import { CHANNELS } from '../../contract/constants.js'
import { CHANNEL_KEYS_LABEL } from './keys.js'

/** Every key, grouped as the user meets them; `?` shows this, the footer a short form, the README the same list. */
export const KEY_HELP: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
  ['Lists', [
    ['↑ ↓  k j', 'move the selection (PgUp PgDn, g G or Home End for the ends)'],
    ['Enter  →', 'open the selected message or request'],
    ['Tab', 'switch between Outbox and Requests'],
    [CHANNEL_KEYS_LABEL, `Outbox: show ${CHANNELS.map((c) => CHANNEL_LABELS[c].replace(/^Email$/, 'email')).join(', ')}, or all channels`],
    ['s', 'Outbox: cycle the status filter: queued, sent, delivered, failed, all'],
    ['/', 'Outbox: search recipient, sender, subject, text and template parameters (Enter keeps, Esc clears)'],
    ['e', 'Requests: errors only, or all requests'],
    ['Esc', 'clear the filters'],
    ['c', 'clear the outbox (asks y/n)'],
    ['r', 'reset the sandbox: subscribers, outbox, journal, limits, faults (asks y/n)'],
  ]],
  ['Message', [
    ['↑ ↓  k j', 'scroll (PgUp PgDn or Space, g G)'],
    ['o', 'open the email in the browser (prints the URL when there is none)'],
    ['1 … 9', 'open link 1 to 9 in the browser'],
    ['y', 'copy the first code to the clipboard (OSC 52)'],
    ['Y 1 … 9', 'copy link 1 to 9 to the clipboard (OSC 52)'],
    ['v', 'show the text, or the source (email HTML, the request as sent)'],
    ['l', 'jump to the links'],
    ['d', 'delete this message (asks y/n)'],
    ['Esc  Backspace  ←', 'back to the list'],
  ]],
  ['Request', [
    ['↑ ↓  k j', 'scroll'],
    ['Esc  Backspace  ←', 'back to the list'],
  ]],
  ['Anywhere', [
    ['?', 'this help (any other key closes it)'],
    ['q  Ctrl-C', 'quit and shut the server down'],
  ]],
]

/** The help screen as rows of `width` cells: descriptions wrap under themselves. */
export function helpLines(width: number): StyledLine[] {
  const keyWidth = width < 60 ? 12 : 20
  const lines: StyledLine[] = [[seg('Keys', { bold: true, color: 'cyan' })]]
  for (const [group, keys] of KEY_HELP) {
    lines.push([seg(group, { bold: true })])
    for (const [key, what] of keys) {
      const keyRows = wrapRows(key, keyWidth - 3)
      const whatRows = wrapRows(what, Math.max(10, width - keyWidth))
      for (let i = 0; i < Math.max(keyRows.length, whatRows.length); i++) {
        lines.push([seg(`  ${(keyRows[i] ?? '').padEnd(keyWidth - 2)}`, { color: 'yellow' }), seg(whatRows[i] ?? '')])
      }
    }
  }
  for (const note of ['The selection follows new messages while it is on the top row, like tail -f.', 'Copying uses OSC 52: in tmux, set -g set-clipboard on.']) {
    for (const row of wrapRows(note, width)) lines.push([seg(row, { dim: true })])
  }
  return lines
}
