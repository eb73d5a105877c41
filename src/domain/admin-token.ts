/**
 * The admin token guards `/__sandbox` (reset, faults, the outbox). An empty or blank one would
 * be matched by an empty `X-Sendbox-Admin-Token:` header and open every control (issue 11), so
 * it is refused wherever a token comes from: flag, environment, config file, in-process option.
 */

import { adminTokenProblem } from '../contract/settings.js'

// The rule is a setting's (the config file's schema applies it too): declared in the contract.
export { adminTokenProblem }

/**
 * Throws a TypeError for an admin token that cannot be used (empty, blank, with whitespace).
 * Called by the SandboxState constructor for the in-process `adminToken` option.
 *
 * @example
 * assertAdminToken(options.adminToken) // throws TypeError on '' or '  '
 */
export function assertAdminToken(token: string | undefined): void {
  const problem = adminTokenProblem(token)
  if (problem !== undefined) throw new TypeError(`adminToken: ${problem}`)
}

/**
 * Compares a secret the client sent with the one held, in time that does not depend on where
 * they differ (the admin token, a preview token). Different lengths are unequal.
 */
export function sameSecret(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i)
  return diff === 0
}
