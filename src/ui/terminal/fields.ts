import { wrapRows } from './cells.js'
import { seg, type Segment, type StyledLine } from './page.js'

/** Width of a detail's label column. */
export const LABEL_WIDTH = 10
export type Style = Omit<Segment, 'text'>

/** A labelled value, wrapped under itself in full (a detail never cuts a value). */
export function field(label: string, value: string, width: number, style: Style = {}, link?: string): StyledLine[] {
  const rows = wrapRows(value, Math.max(10, width - LABEL_WIDTH))
  return rows.map((row, i) => [
    seg((i === 0 ? label : '').padEnd(LABEL_WIDTH), { dim: true }),
    seg(row, { ...style, link }),
  ])
}

/** A section rule: `── Links (3) ─────`. */
export function section(title: string, width: number): StyledLine {
  const head = `── ${title} `
  return [seg(head + '─'.repeat(Math.max(0, width - head.length)), { dim: true })]
}
