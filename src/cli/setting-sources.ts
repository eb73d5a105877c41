/**
 * Where each setting is read from (flag, environment, config file, default) and how: by its
 * kind for most rows of the settings table, by its own reader (`READERS`) for the few whose value
 * the domain parses (keys, limits, team tokens, origins). `CliSettings` is typed from the two.
 */
import { parseEmailClients, parseSpamdTarget } from '../domain/checks/settings.js'
import { adminTokenProblem } from '../domain/admin-token.js'
import {
  configKeyOf,
  envOf,
  HTTP_URL,
  rangeOf,
  SETTINGS,
  type RangedName,
  type Setting,
  type SettingName,
} from '../contract/settings.js'
import { checkTeamTokens, parseTeamToken, type TeamToken } from '../domain/team-tokens.js'
import { parseKeySpec, PLANS, isPlan, type ApiKeyConfig, type Plan } from '../domain/plans.js'
import { parseAllowedHost, parseCorsOrigin } from '../transports/origin-policy.js'
import { configKeySpecs, type ConfigFile } from './config-file.js'

/** A bad command line: the message is the one line printed to stderr. */
export class UsageError extends Error {}

function wholeNumber(flag: RangedName, raw: string): number {
  const [min, max] = rangeOf(flag)
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

export type ParsedValues = Record<string, string | string[] | boolean | undefined>

/** A setting's environment variable in `env`, when set and not empty. */
export function envValue(env: NodeJS.ProcessEnv, name: SettingName): string | undefined {
  const variable = envOf(name)
  return variable && env[variable] !== undefined && env[variable] !== '' ? env[variable] : undefined
}

/** The settings that are lists in the environment. */
type ListName = { [N in SettingName]: (typeof SETTINGS)[N] extends { separator: string } ? N : never }[SettingName]

/** Where each setting may come from, in precedence order: flags, environment, config file, default. */
export class SettingSources {
  constructor(
    readonly values: ParsedValues,
    private readonly env: NodeJS.ProcessEnv,
    readonly file: ConfigFile,
    readonly configFile: string | undefined,
  ) {}

  /** The setting's environment variable, when set and not empty. */
  fromEnv(name: SettingName): string | undefined {
    return envValue(this.env, name)
  }

  /** A list setting's environment variable split at the table's separator, items trimmed, blanks dropped. */
  envList(name: ListName): string[] | undefined {
    return this.fromEnv(name)
      ?.split(SETTINGS[name].separator)
      .map((v) => v.trim())
      .filter((v) => v !== '')
  }

  /** A single-valued setting as text, from the first source that has it. */
  str(name: SettingName): string | undefined {
    const spec: Setting = SETTINGS[name]
    const value = this.values[name]
    if (typeof value === 'string') return value
    const fromFile = (this.file as Record<string, unknown>)[configKeyOf(name)]
    return this.fromEnv(name) ?? (fromFile === undefined ? undefined : String(fromFile)) ?? spec.default
  }

  /** A value read by its kind alone (the rows without a reader of their own). */
  byKind(name: SettingName): unknown {
    const spec: Setting = SETTINGS[name]
    if (spec.kind === 'whole') return wholeNumber(name as RangedName, this.str(name)!)
    if (spec.kind === 'switch') return this.switch(name)
    if (spec.kind === 'probability') return this.probability(name)
    if (spec.kind === 'choice') return this.choice(name, spec.choices ?? [])
    if (spec.kind === 'list') return this.list(name as ListName & SettingName, (value) => value)
    return this.str(name)
  }

  /** A switch: the flag, its environment variable (1/true/yes, 0/false/no) or the file; a `no-` switch gives its opposite (`--no-ui` → `ui: false`). */
  private switch(name: SettingName): boolean {
    const negated = name.startsWith('no-')
    const fromFile = (this.file as Record<string, unknown>)[configKeyOf(name)]
    const on = this.values[name] === true || envFlag(this.fromEnv(name), name) || fromFile === !negated
    return negated ? !on : on
  }

  private probability(name: SettingName): number {
    const raw = this.str(name) ?? '0'
    if (!/^(?:0(?:\.[0-9]+)?|1(?:\.0+)?|\.[0-9]+)$/.test(raw))
      throw new UsageError(`--${name} must be a probability from 0 to 1, like 0.2, got "${raw}"`)
    return Number(raw)
  }

  private choice(name: SettingName, choices: readonly string[]): string | undefined {
    const raw = this.str(name)
    if (raw === undefined || choices.includes(raw)) return raw
    throw new UsageError(`--${name} must be ${choices.join(' or ')}, got "${raw}"`)
  }

  /** A repeatable flag: the flags, else the environment (comma-separated), else the file (a string or a list). */
  list(name: ListName, parse: (value: string) => string): string[] {
    const fromFlags = this.values[name] as string[] | undefined
    const fromFile = (this.file as Record<string, unknown>)[configKeyOf(name)] as string | string[] | undefined
    const raw =
      fromFlags && fromFlags.length > 0
        ? fromFlags
        : (this.envList(name) ?? (fromFile === undefined ? [] : [fromFile].flat()))
    try {
      return raw.map(parse)
    } catch (error) {
      const where =
        fromFlags && fromFlags.length > 0
          ? ''
          : this.fromEnv(name) !== undefined
            ? ` (from ${envOf(name)})`
            : ` (from ${this.configFile})`
      throw new UsageError(`${(error as Error).message}${where}`)
    }
  }

  /** The API keys: the flags or their environment variable, else the file's; none given twice. */
  apiKeys(): ApiKeyConfig[] | undefined {
    // Specs are not trimmed here: a bad one is quoted as given (parseKeySpec trims what it reads).
    const flagOrEnvKeys =
      (this.values['api-key'] as string[] | undefined) ??
      this.fromEnv('api-key')
        ?.split(SETTINGS['api-key'].separator)
        .filter((s) => s.trim() !== '')
    const keysFromFile = flagOrEnvKeys === undefined || flagOrEnvKeys.length === 0
    const keySpecs = keysFromFile ? configKeySpecs(this.file) : flagOrEnvKeys
    if (!keySpecs || keySpecs.length === 0) return undefined
    let apiKeys: ApiKeyConfig[]
    try {
      apiKeys = keySpecs.map((spec) => parseKeySpec(spec))
    } catch (error) {
      throw new UsageError(
        keysFromFile ? `${this.configFile}: \`apiKeys\`: ${(error as Error).message}` : (error as Error).message,
      )
    }
    const seen = new Set<string>()
    for (const { key } of apiKeys) {
      if (seen.has(key))
        throw new UsageError(`API key "${key}" is given twice${keysFromFile ? ` in ${this.configFile}` : ''}`)
      seen.add(key)
    }
    return apiKeys
  }

  /** Per plan: a --limit flag overrides that plan's limit from the file, not the others. */
  limits(): Partial<Record<Plan, number>> {
    const limits: Partial<Record<Plan, number>> = { ...this.file.limits }
    const limitFlags = (this.values.limit as string[] | undefined) ?? []
    for (const spec of limitFlags.length > 0 ? limitFlags : (this.envList('limit') ?? [])) {
      const match = /^([a-z]+)=([0-9]+)$/i.exec(spec)
      const plan = match?.[1].toLowerCase()
      if (!match || !plan || !isPlan(plan)) {
        throw new UsageError(`bad --limit "${spec}": expected PLAN=N with PLAN one of ${PLANS.join(', ')}`)
      }
      limits[plan] = wholeNumber('limit', match[2])
    }
    return limits
  }

  /**
   * The admin token. An empty one would be matched by an empty header and open every control:
   * refused wherever it comes from (an empty environment variable included, which would otherwise read as unset).
   */
  adminToken(): string | undefined {
    const flag = this.values['admin-token']
    const variable = envOf('admin-token')!
    const fromEnv = this.env[variable]
    const adminToken = typeof flag === 'string' ? flag : fromEnv !== undefined ? fromEnv : this.file.adminToken
    const tokenProblem = adminTokenProblem(adminToken)
    if (tokenProblem !== undefined) {
      const source =
        typeof flag === 'string'
          ? '--admin-token'
          : fromEnv !== undefined
            ? variable
            : `${this.configFile}: \`adminToken\``
      throw new UsageError(`${source}: ${tokenProblem}`)
    }
    return adminToken
  }

  /** The team tokens, each checked against the others and the admin token. */
  teamTokens(): TeamToken[] {
    return teamTokensOf(
      this.values['team-token'] as string[] | undefined,
      this.envList('team-token'),
      this.file.teamToken,
      this.configFile,
      this.adminToken(),
    )
  }

  /** `--webhook-url`: an http(s) URL. */
  webhookUrl(): string | undefined {
    const webhookUrl = this.str('webhook-url')
    if (webhookUrl !== undefined && !HTTP_URL.test(webhookUrl)) {
      throw new UsageError(`--webhook-url must be an http(s) URL, got "${webhookUrl}"`)
    }
    return webhookUrl
  }
}

/**
 * The rows whose value is not read by its kind alone: parsed by the domain, checked against
 * another setting, or from where the config file was found. Any other row is read by
 * {@link SettingSources.byKind}; `CliSettings` takes each reader's return type.
 */
export const READERS = {
  'api-key': (from: SettingSources) => from.apiKeys(),
  limit: (from: SettingSources) => from.limits(),
  'webhook-url': (from: SettingSources) => from.webhookUrl(),
  'admin-token': (from: SettingSources) => from.adminToken(),
  'team-token': (from: SettingSources) => from.teamTokens(),
  'cors-origin': (from: SettingSources) => from.list('cors-origin', parseCorsOrigin),
  'allowed-host': (from: SettingSources) => from.list('allowed-host', parseAllowedHost),
  'email-clients': (from: SettingSources) =>
    from.list('email-clients', (value) => value).flatMap((value) => parseEmailClients(value)),
  spamassassin: (from: SettingSources) => spamdOf(from.str('spamassassin')),
  config: (from: SettingSources) => from.configFile,
} satisfies { [N in SettingName]?: (from: SettingSources) => unknown }

/** `--spamassassin HOST:PORT`, checked here so a typo fails the start with one line. */
function spamdOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  try {
    parseSpamdTarget(value)
  } catch (error) {
    throw new UsageError(`--spamassassin ${(error as Error).message.replace(/^spamassassin /, '')}`)
  }
  return value
}

/**
 * The team tokens: the flags, else SENDBOX_TEAM_TOKENS (semicolon-separated: accounts are
 * comma-separated), else the config file's `teamToken` list. Each is checked, and none may be
 * given twice or equal the admin token.
 */
function teamTokensOf(
  flags: string[] | undefined,
  fromEnv: string[] | undefined,
  fromFile: ConfigFile['teamToken'],
  configFile: string | undefined,
  adminToken: string | undefined,
): TeamToken[] {
  const source =
    flags && flags.length > 0
      ? '--team-token'
      : fromEnv !== undefined
        ? envOf('team-token')
        : `${configFile}: \`teamToken\``
  try {
    const teams =
      flags && flags.length > 0
        ? flags.map(parseTeamToken)
        : fromEnv !== undefined
          ? fromEnv.map(parseTeamToken)
          : (fromFile ?? []).map((t) => (typeof t === 'string' ? parseTeamToken(t) : t))
    checkTeamTokens(teams, adminToken)
    return teams
  } catch (error) {
    throw new UsageError(`${source}: ${(error as Error).message.replace(/^team token: /, '')}`)
  }
}

/** A boolean flag's environment variable: 1/true/yes or 0/false/no (anything else is a usage error). */
function envFlag(raw: string | undefined, name: SettingName): boolean {
  if (raw === undefined) return false
  if (/^(1|true|yes)$/i.test(raw)) return true
  if (/^(0|false|no)$/i.test(raw)) return false
  throw new UsageError(`${envOf(name)} must be 1, true, yes, 0, false or no, got "${raw}"`)
}
