import { adminTokenProblem, sameSecret } from './admin-token.js'

/**
 * Team tokens (`--team-token NAME:TOKEN:ACCOUNT[,ACCOUNT…]`): a token that opens `/__sandbox`
 * and the web inbox for some accounts only. Who asks is a {@link Viewer}: the admin (every
 * account, every control) or a team (its accounts; controls that change global state refused).
 */
export interface TeamToken {
  /** Shown in the web inbox ("signed in as qa") and in `GET /__sandbox/whoami`. */
  name: string
  token: string
  /** The accounts it sees (an API key's account, as `GET /__sandbox/keys` lists them). */
  accounts: readonly string[]
}

/** Who a `/__sandbox` request comes from. */
export type Viewer = { role: 'admin' } | { role: 'team'; name: string; accounts: ReadonlySet<string> }

export const ADMIN_VIEWER: Viewer = Object.freeze({ role: 'admin' })

/** Whether the viewer may see what belongs to `account` (the admin sees every account). */
export function sees(viewer: Viewer, account: string | null | undefined): boolean {
  return viewer.role === 'admin' || (account != null && viewer.accounts.has(account))
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** Why a team token cannot be used, or undefined when it can. */
export function teamTokenProblem(team: TeamToken): string | undefined {
  if (typeof team.name !== 'string' || !NAME.test(team.name))
    return `the name ${JSON.stringify(team.name)} must be 1 to 64 letters, digits, ".", "_" or "-"`
  const problem = adminTokenProblem(team.token)
  if (problem !== undefined || team.token === undefined)
    return problem?.replace('the admin token', `the token of "${team.name}"`) ?? `"${team.name}" has no token`
  if (team.token.length < 8) return `the token of "${team.name}" is shorter than 8 characters`
  if (!Array.isArray(team.accounts) || team.accounts.length === 0) return `"${team.name}" names no account`
  for (const account of team.accounts) {
    if (typeof account !== 'string' || account.trim() === '' || /[\s,]/.test(account))
      return `"${team.name}" names an account that is blank or holds a comma or whitespace: ${JSON.stringify(account)}`
  }
  return undefined
}

/**
 * Parses `NAME:TOKEN:ACCOUNT[,ACCOUNT…]` (the flag's and the environment's form). The token may
 * hold colons (the last `:` separates the accounts). Throws a TypeError naming what is wrong.
 *
 * @example
 * parseTeamToken('qa:tok_qa_123456:acct_test_pro') // { name: 'qa', token: 'tok_qa_123456', accounts: ['acct_test_pro'] }
 */
export function parseTeamToken(text: string): TeamToken {
  const first = text.indexOf(':')
  const last = text.lastIndexOf(':')
  if (first <= 0 || last === first)
    throw new TypeError(`team token ${JSON.stringify(redact(text))}: expected NAME:TOKEN:ACCOUNT[,ACCOUNT…]`)
  const team = {
    name: text.slice(0, first),
    token: text.slice(first + 1, last),
    accounts: text
      .slice(last + 1)
      .split(',')
      .map((a) => a.trim()),
  }
  checkTeamTokens([team])
  return team
}

/** The first part and the accounts of a spec, the secret in between hidden (for error messages). */
function redact(text: string): string {
  const first = text.indexOf(':')
  const last = text.lastIndexOf(':')
  return first > 0 && last > first
    ? `${text.slice(0, first)}:…${text.slice(last)}`
    : text.length > 12
      ? `${text.slice(0, 4)}…`
      : text
}

/**
 * Throws a TypeError for a list that cannot be used: a token that is invalid, two teams with one
 * name, or one token given twice or equal to the admin token (a token names one viewer).
 */
export function checkTeamTokens(teams: readonly TeamToken[], adminToken?: string): void {
  const names = new Set<string>()
  const tokens: string[] = adminToken === undefined ? [] : [adminToken]
  for (const team of teams) {
    const problem = teamTokenProblem(team)
    if (problem !== undefined) throw new TypeError(`team token: ${problem}`)
    if (names.has(team.name)) throw new TypeError(`team token: the name "${team.name}" is given twice`)
    if (tokens.some((t) => sameSecret(team.token, t)))
      throw new TypeError(
        `team token: the token of "${team.name}" is also ${adminToken !== undefined && sameSecret(team.token, adminToken) ? 'the admin token' : "another team's token"}`,
      )
    names.add(team.name)
    tokens.push(team.token)
  }
}

/** The viewer a token names among the teams, or undefined. Compares every token (constant time each). */
export function teamViewer(teams: readonly TeamToken[], given: string): Viewer | undefined {
  let found: TeamToken | undefined
  for (const team of teams) if (sameSecret(given, team.token) && found === undefined) found = team
  return found && { role: 'team', name: found.name, accounts: new Set(found.accounts) }
}
