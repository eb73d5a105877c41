import { seg, type StyledLine } from './components/styled-lines.js'

/** Every key, grouped as the user meets them; `?` shows this, the footer a short form. */
export const KEY_HELP: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
  ['Lists', [
    ['↑ ↓  k j', 'move the selection (PgUp PgDn, g G for the ends)'],
    ['Enter', 'open the selected message'],
    ['Tab', 'switch between Outbox and Requests'],
    ['1 2 3 0', 'show email, SMS, WhatsApp, or all channels'],
    ['/', 'search recipient, subject and text (Enter keeps, Esc clears)'],
    ['c', 'clear the outbox (asks y/n)'],
    ['r', 'reset the sandbox: subscribers, outbox, journal, limits, faults (asks y/n)'],
  ]],
  ['Detail', [
    ['↑ ↓  k j', 'scroll (PgUp PgDn or Space, g G)'],
    ['Esc  Backspace', 'back to the list'],
  ]],
  ['Anywhere', [
    ['?', 'this help (any key closes it)'],
    ['q  Ctrl-C', 'quit and shut the server down'],
  ]],
]

/** The help screen as rows. */
export function helpLines(): StyledLine[] {
  const lines: StyledLine[] = [[seg('Keys', { bold: true, color: 'cyan' })]]
  for (const [group, keys] of KEY_HELP) {
    lines.push([seg(group, { bold: true })])
    for (const [key, what] of keys) lines.push([seg(`  ${key.padEnd(16)}`, { color: 'yellow' }), seg(what)])
  }
  lines.push([seg('The selection follows new messages while it is on the top row, like tail -f.', { dim: true })])
  return lines
}
