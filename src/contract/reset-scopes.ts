import { ACCOUNT_RESET_SCOPES, RESET_SCOPES, type ResetScope } from './constants.js'

/**
 * Each reset scope as a confirmation names it: derived from {@link RESET_SCOPES} (a record over
 * every scope, so a new scope does not compile until it has its words here), so the terminal
 * UI's and the web inbox's "Reset?" list everything a reset clears.
 */
export const RESET_SCOPE_LABELS: Record<ResetScope, string> = {
  subscribers: 'subscribers (back to the seeded ones)',
  messages: 'outbox',
  limits: 'rate-limit windows',
  faults: 'faults',
  journal: 'request journal',
  opt_outs: 'opt-outs',
  webhooks: 'webhook attempts',
}

/** `a, b and c`. */
function listed(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}

/**
 * What a whole reset clears, in words: every scope (`team`: those a team token may reset).
 *
 * @example resetScopeText() // 'subscribers (back to the seeded ones), outbox, …, opt-outs and webhook attempts'
 */
export function resetScopeText(team = false): string {
  return listed((team ? ACCOUNT_RESET_SCOPES : RESET_SCOPES).map((scope) => RESET_SCOPE_LABELS[scope]))
}
