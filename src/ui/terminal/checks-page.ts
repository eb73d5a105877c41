import type { CheckReport, CheckSeverity } from '../../contract/checks.js'
import { field, section } from './fields.js'
import { RowSource, seg, type Block, type StyledLine } from './page.js'

/**
 * The Checks page of a message (key `c`, issue 35): the score, then each check grouped by
 * severity, with where it applies. Check messages quote the message (link text, URLs), so they go
 * through text blocks, which the page sanitizes (safe-text.ts) like every client text.
 */
const SEVERITY_COLOURS = { error: 'red', warning: 'yellow', info: 'cyan' } as const satisfies Record<
  CheckSeverity,
  string
>

/** The header's line about the checks: the kept report's score, or how to get one. */
export function checksField(report: CheckReport | undefined, width: number): StyledLine[] {
  if (report === undefined) return field('Checks', 'not checked yet · c checks it', width, { dim: true })
  const { error, warning, info } = report.counts
  const colour = error > 0 ? 'red' : warning > 0 ? 'yellow' : 'green'
  return field(
    'Checks',
    `score ${report.score}/100 · ${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info · c shows them`,
    width,
    { color: colour, bold: true },
  )
}

/** The page's body: the checks, or a line saying they are being computed. */
export function checksSource(report: CheckReport | undefined, width: number): RowSource {
  if (report === undefined) return new RowSource([{ kind: 'rows', rows: [[seg('Checking…', { dim: true })]] }], width)
  const blocks: Block[] = []
  if (report.checks.length === 0) blocks.push({ kind: 'rows', rows: [[seg('Nothing found.', { color: 'green' })]] })
  for (const severity of ['error', 'warning', 'info'] as const) {
    const checks = report.checks.filter((c) => c.severity === severity)
    if (checks.length === 0) continue
    blocks.push({ kind: 'rows', rows: [section(`${severity} (${checks.length})`, width)] })
    for (const c of checks) {
      const where = c.location
        ? ` line ${c.location.line}:${c.location.column}`
        : c.parameter !== undefined
          ? ` parameter ${c.parameter}`
          : c.position !== undefined
            ? ` position ${c.position}`
            : ''
      blocks.push({
        kind: 'text',
        text: `${c.id} [${c.category}]${where}`,
        style: { color: SEVERITY_COLOURS[severity], bold: true },
      })
      blocks.push({ kind: 'text', text: `  ${c.message}${c.location ? `\n  ${c.location.excerpt}` : ''}` })
    }
  }
  return new RowSource(blocks, width)
}
