/**
 * The admin token guards `/__sandbox` (reset, faults, the outbox). An empty or blank one would
 * be matched by an empty `X-Sendbox-Admin-Token:` header and open every control (issue 11), so
 * it is refused wherever a token comes from: flag, environment, config file, in-process option.
 */

/** Why a token cannot be used, or undefined when it can (undefined = no token: fine). */
export function adminTokenProblem(token: string | undefined): string | undefined {
  if (token === undefined) return undefined
  if (typeof token !== 'string') return 'the admin token must be a string'
  if (token.trim() === '') return 'the admin token is empty; give a non-blank token, or none to leave /__sandbox open on loopback'
  if (/\s/.test(token)) return 'the admin token may not contain whitespace (a header could not carry it intact)'
  return undefined
}

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
