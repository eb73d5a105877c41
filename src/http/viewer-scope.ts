import { ApiError } from '../domain/errors.js'
import { accountKey } from '../domain/inbound.js'
import type { ApiKeyConfig } from '../domain/plans.js'
import { sees, type Viewer } from '../domain/team-tokens.js'

/**
 * What a control shows a team token (`--team-token`): only what belongs to its accounts. Another
 * account's item is answered as one that does not exist (404), never as "forbidden", so a team
 * token cannot even learn which ids exist elsewhere.
 */

/** The items the viewer sees (all of them for the admin). */
export function visible<T extends { account: string | null }>(viewer: Viewer, items: readonly T[]): T[] {
  return viewer.role === 'admin' ? (items as T[]) : items.filter((item) => sees(viewer, item.account))
}

/** The item when the viewer sees it, else undefined (the caller answers its usual 404). */
export function visibleOne<T extends { account: string | null }>(viewer: Viewer, item: T | undefined): T | undefined {
  return item !== undefined && sees(viewer, item.account) ? item : undefined
}

/** The accounts a team viewer sees (undefined for the admin: every account). */
export function accountsOf(viewer: Viewer): ReadonlySet<string> | undefined {
  return viewer.role === 'team' ? viewer.accounts : undefined
}

/**
 * Throws 403 `forbidden` when a team viewer acts on an account not its own (a fault, an inbound
 * reply, an opt-out naming another account's key or account).
 */
export function checkOwnAccount(viewer: Viewer, account: string, param: string): void {
  if (viewer.role === 'admin' || viewer.accounts.has(account)) return
  throw new ApiError(
    'forbidden',
    `The team token "${viewer.name}" acts on ${[...viewer.accounts].join(', ')} only, not on account ${account}.`,
    param,
  )
}

/**
 * The key config a control's `key` or `account` names, among those the viewer may name (issue 36,
 * R6): for a team token, another account's key or account is answered exactly as a missing one
 * (400 naming the field; the list it gives holds the team's accounts only), so the answer cannot
 * tell whether a guessed key exists.
 */
export function ownAccountKey(
  viewer: Viewer,
  keys: readonly ApiKeyConfig[],
  key: string | undefined,
  account: string | undefined,
): ApiKeyConfig {
  if (viewer.role === 'admin') return accountKey(keys, key, account)
  return accountKey(
    keys.filter((k) => viewer.accounts.has(k.account)),
    key,
    account,
    viewer.name,
  )
}
