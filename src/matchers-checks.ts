/**
 * `toPassChecks` (issue 35): `await expect(message).toPassChecks({ severity: 'error', ignore: [] })`
 * fails when a check at or above `severity` remains once the `ignore`d rule ids and categories are
 * left out, and its message lists those checks. `expect` takes a captured message (checked here,
 * with every client counting and no spamd: the checks that need the sandbox's settings are the
 * report's, so pass the report to judge by them) or a check report (`await sandbox.checks(id)`,
 * `await client.messages.checks(id)`).
 */
import {
  CHECK_CATEGORIES,
  CHECK_SEVERITIES,
  type Check,
  type CheckReport,
  type CheckSeverity,
} from './contract/checks.js'
import type { CapturedMessage } from './contract/captured-message.js'

/** What `toPassChecks` takes. */
export interface PassChecksOptions {
  /** The lowest severity that fails (default `'error'`; `'warning'` fails on warnings too). */
  severity?: Exclude<CheckSeverity, 'info'> | CheckSeverity
  /** Rule ids (`links.http`) or categories (`compatibility`) that never fail. */
  ignore?: readonly string[]
}

interface MatcherContext {
  isNot?: boolean
}

function isReport(value: unknown): value is CheckReport {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as CheckReport).checks) &&
    typeof (value as CheckReport).score === 'number'
  )
}

function isMessage(value: unknown): value is CapturedMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CapturedMessage).message_id === 'string' &&
    typeof (value as CapturedMessage).channel === 'string'
  )
}

async function reportOf(received: unknown): Promise<CheckReport> {
  if (isReport(received)) return received
  if (isMessage(received)) {
    // Loaded when first used: `sendbox/matchers` stays light for suites that never check.
    const { checkMessage } = await import('./domain/checks/index.js')
    return checkMessage(received)
  }
  throw new TypeError(
    'toPassChecks: expect() takes a captured message (sandbox.outbox.get(id), client.outbox.waitFor(…)) or a check report (await sandbox.checks(id)).',
  )
}

function line(check: Check): string {
  const where = check.location
    ? ` line ${check.location.line}:${check.location.column}`
    : check.parameter !== undefined
      ? ` parameter ${check.parameter}`
      : check.position !== undefined
        ? ` position ${check.position}`
        : ''
  return `  ${check.severity} ${check.id} [${check.category}]${where}: ${check.message}`
}

/** The checks that make `toPassChecks` fail. */
export function failingChecks(report: CheckReport, options: PassChecksOptions = {}): Check[] {
  const severity = options.severity ?? 'error'
  if (!(CHECK_SEVERITIES as readonly string[]).includes(severity))
    throw new TypeError(
      `toPassChecks: severity must be one of ${CHECK_SEVERITIES.join(', ')} (got ${JSON.stringify(severity)}).`,
    )
  const ignore = new Set(options.ignore ?? [])
  const worst = CHECK_SEVERITIES.indexOf(severity)
  return report.checks.filter(
    (c) => CHECK_SEVERITIES.indexOf(c.severity) <= worst && !ignore.has(c.id) && !ignore.has(c.category),
  )
}

/** The matcher, for `expect.extend({ toPassChecks })` in vitest, Jest and Playwright. */
export async function toPassChecks(
  this: MatcherContext,
  received: unknown,
  options: PassChecksOptions = {},
): Promise<{ pass: boolean; message: () => string }> {
  const report = await reportOf(received)
  const failing = failingChecks(report, options)
  const severity = options.severity ?? 'error'
  const ignored = options.ignore && options.ignore.length > 0 ? ` (ignoring ${options.ignore.join(', ')})` : ''
  return {
    pass: failing.length === 0,
    message: () =>
      failing.length === 0
        ? `expected ${report.message_id} to fail its checks at ${severity} or above${ignored}, but none remain (score ${report.score})`
        : `expected ${report.message_id} to pass its checks at ${severity} or above${ignored}, but ${failing.length} remain${failing.length === 1 ? 's' : ''} (score ${report.score}):\n${failing.slice(0, 30).map(line).join('\n')}${failing.length > 30 ? `\n  … and ${failing.length - 30} more` : ''}\nFix them, or list rule ids or categories (${CHECK_CATEGORIES.join(', ')}) in \`ignore\`.`,
  }
}
