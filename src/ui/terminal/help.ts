import { wrapRows } from './cells.js'
import { seg, type StyledLine } from './page.js'
import { keyHelp } from './keymap.js'

/** Every key, grouped as the user meets them (keymap.ts): `?` shows this, the footer a short form, the README the same list. */
export const KEY_HELP = keyHelp()

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
  for (const note of [
    'The selection follows new messages while it is on the top row, like tail -f.',
    'Copying uses OSC 52: in tmux, set -g set-clipboard on.',
  ]) {
    for (const row of wrapRows(note, width)) lines.push([seg(row, { dim: true })])
  }
  return lines
}
