import type { Check, CheckReport, CheckSeverity, ClientSupport } from '../../contract/checks.js'
import type { Channel } from '../../contract/constants.js'

/**
 * The report's `score` (docs/decisions/checks-score.md): 100 − 25 per error − 8 per warning − 1
 * per info, floor 0, where each rule counts at most {@link COUNTED_PER_RULE} of its findings (a
 * newsletter with forty `http:` images has one problem, not forty), a compatibility finding counts
 * only when it names a client of `--email-clients` (all clients when none are named), and the note
 * that no spam check ran (`spam.not-configured`) does not count: it is not a finding.
 */
export const SCORE_WEIGHTS: Record<CheckSeverity, number> = { error: 25, warning: 8, info: 1 }
export const COUNTED_PER_RULE = 3
/** Checks that are notes about the report rather than findings about the message. */
const NOT_FINDINGS: ReadonlySet<string> = new Set(['spam.not-configured'])

/** Whether a check counts for the score, given the clients that count (empty: every client). */
export function countsForScore(check: Check, emailClients: readonly string[]): boolean {
  if (NOT_FINDINGS.has(check.id)) return false
  if (check.category !== 'compatibility' || emailClients.length === 0 || check.clients === undefined) return true
  return check.clients.some((client) =>
    emailClients.some((counted) => client === counted || client.startsWith(`${counted}.`)),
  )
}

/** The score of a list of checks (see the module's comment). */
export function scoreOf(checks: readonly Check[], emailClients: readonly string[] = []): number {
  const perRule = new Map<string, number>()
  let penalty = 0
  for (const check of checks) {
    if (!countsForScore(check, emailClients)) continue
    const seen = perRule.get(check.id) ?? 0
    if (seen >= COUNTED_PER_RULE) continue
    perRule.set(check.id, seen + 1)
    penalty += SCORE_WEIGHTS[check.severity]
  }
  return Math.max(0, 100 - penalty)
}

/** Checks counted by severity. */
export function countsOf(checks: readonly Check[]): CheckReport['counts'] {
  const counts = { error: 0, warning: 0, info: 0 }
  for (const check of checks) counts[check.severity]++
  return counts
}

const SEVERITY_ORDER: Record<CheckSeverity, number> = { error: 0, warning: 1, info: 2 }

/** The report of a message's checks: errors first, then warnings, then info, each in the order found. */
export function reportOf(input: {
  messageId: string
  channel: Channel
  checks: readonly Check[]
  clients?: ClientSupport[]
  emailClients: readonly string[]
  checkedAt: number
  liveLinks: boolean
}): CheckReport {
  const checks = [...input.checks].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
  return {
    message_id: input.messageId,
    channel: input.channel,
    score: scoreOf(checks, input.emailClients),
    counts: countsOf(checks),
    checks,
    ...(input.clients && input.clients.length > 0 ? { clients: input.clients } : {}),
    checked_at: new Date(input.checkedAt).toISOString(),
    live_links: input.liveLinks,
  }
}
