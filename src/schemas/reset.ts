import { RESET_SCOPES, type ResetScope } from '../domain/sandbox.js'

/**
 * Checks a `reset(scope)` argument from JavaScript: undefined (everything) or one of the scopes.
 * Anything else is a TypeError naming the valid scopes — `reset('everything')` used to reset
 * nothing, silently, while `POST /__sandbox/reset?scope=everything` answered 400.
 */
export function assertResetScope(scope: unknown): asserts scope is ResetScope | undefined {
  if (scope === undefined || (typeof scope === 'string' && (RESET_SCOPES as readonly string[]).includes(scope))) return
  const shown = typeof scope === 'string' ? `"${scope.slice(0, 50)}"` : String(scope)
  throw new TypeError(`reset(${shown}): unknown scope. Call reset() for everything, or reset(scope) with one of ${RESET_SCOPES.map((s) => `"${s}"`).join(', ')}.`)
}
