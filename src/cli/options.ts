import { parseArgs } from 'node:util'
import { parseEmailClients, parseSpamdTarget } from '../domain/checks/settings.js'
import { adminTokenProblem } from '../domain/admin-token.js'
import type { SandboxOptions } from '../domain/sandbox.js'
import type { ThreadedServerOptions } from '../transports/threaded-server.js'
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
import {
  CONFIG_FILE_NAME,
  ConfigFileError,
  configKeySpecs,
  findConfigFile,
  loadConfigFile,
  type ConfigFile,
} from './config-file.js'

/** The in-process option a setting names, checked here against the options it is one of. */
type OptionOf<K extends 'option' | 'serverOption'> = {
  [N in SettingName]: (typeof SETTINGS)[N] extends { [P in K]: infer O } ? O : never
}[SettingName]
const sandboxOptionsExist: OptionOf<'option'> extends keyof SandboxOptions ? true : never = true
const serverOptionsExist: OptionOf<'serverOption'> extends keyof ThreadedServerOptions ? true : never = true
void sandboxOptionsExist
void serverOptionsExist
export { envOf }

/** The CLI's settings once parsed and checked. */
export interface CliSettings {
  command: 'serve' | 'keys' | 'openapi' | 'mcp' | 'help' | 'version'
  /** `sendbox mcp --url`: the running sandbox to drive. */
  url: string | undefined
  port: number
  host: string
  apiKeys: ApiKeyConfig[] | undefined
  limits: Partial<Record<Plan, number>>
  seed: number
  subscribers: number
  fixtures: string | undefined
  deliveryMs: number
  maxMessages: number
  maxRequests: number
  /** Outbox byte budget, in MiB. */
  maxOutboxMb: number
  maxWaiters: number
  maxEventClients: number
  /** Threads serving HTTP (1 or 2). */
  threads: number
  webhookUrl: string | undefined
  webhookSecret: string | undefined
  /** Probability (0 to 1) that a webhook event is sent twice. */
  webhookDuplicates: number
  /** The WhatsApp templates file (absolute when it came from the config file), if any. */
  templates: string | undefined
  adminToken: string | undefined
  /** Scoped viewer tokens (`--team-token`). */
  teamTokens: TeamToken[]
  /** Origins granted CORS besides loopback ones (`*` = any). */
  corsOrigins: string[]
  /** Host names answered besides loopback names, IP addresses and the bound host. */
  allowedHosts: string[]
  ui: boolean
  /** The config file in force (absolute path), if any. */
  configFile: string | undefined
  /** The SQLite store kept across restarts (`--data`), if any. */
  data: string | undefined
  /** The request log's format without the terminal UI. */
  logFormat: 'text' | 'json'
  /** Email clients whose compatibility counts for the check score (`--email-clients`); empty: every client. */
  emailClients: string[]
  /** The SpamAssassin spamd that scores checked emails (`--spamassassin HOST:PORT`), if any. */
  spamassassin: string | undefined
}

/** A bad command line: the message is the one line printed to stderr. */
export class UsageError extends Error {}

function wholeNumber(flag: RangedName, raw: string): number {
  const [min, max] = rangeOf(flag)
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

type ParsedValues = Record<string, string | string[] | boolean | undefined>

/** A setting's environment variable in `env`, when set and not empty. */
function envValue(env: NodeJS.ProcessEnv, name: SettingName): string | undefined {
  const variable = envOf(name)
  return variable && env[variable] !== undefined && env[variable] !== '' ? env[variable] : undefined
}

/** The settings that are lists in the environment. */
type ListName = { [N in SettingName]: (typeof SETTINGS)[N] extends { separator: string } ? N : never }[SettingName]

/** argv against the flags of the settings table: the values and the command. */
function parseArgv(argv: string[]): { values: ParsedValues; command: CliSettings['command'] } {
  const options = Object.fromEntries(
    Object.entries(SETTINGS).map(([name, raw]) => {
      const spec: Setting = raw
      return [
        name,
        {
          type: spec.kind === 'switch' ? 'boolean' : 'string',
          multiple: spec.kind === 'list',
          ...(spec.short ? { short: spec.short } : {}),
        },
      ]
    }),
  ) as NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}. Run \`sendbox --help\` for the flags.`)
  }
  const values = parsed.values as ParsedValues
  const [command = 'serve', ...rest] = parsed.positionals
  if (rest.length > 0 || !['serve', 'keys', 'openapi', 'mcp'].includes(command)) {
    throw new UsageError(
      `unknown command "${parsed.positionals.join(' ')}". Commands: serve (default), keys, openapi, mcp. Run \`sendbox --help\`.`,
    )
  }
  return {
    values,
    command: values.help ? 'help' : values.version ? 'version' : (command as 'serve' | 'keys' | 'openapi' | 'mcp'),
  }
}

/** Where each setting may come from, in precedence order: flags, environment, config file, default. */
class SettingSources {
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

  /** A whole-number setting, checked against its range. */
  whole(name: RangedName): number {
    return wholeNumber(name, this.str(name)!)
  }

  /** A repeatable flag: the flags, else the environment (comma-separated), else the file (a string or a list). */
  list(name: 'cors-origin' | 'allowed-host' | 'email-clients', parse: (value: string) => string): string[] {
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

  /** The webhook settings: an http(s) URL, and a duplicate probability from 0 to 1. */
  webhook(): { webhookUrl: string | undefined; webhookDuplicates: number } {
    const webhookUrl = this.str('webhook-url')
    if (webhookUrl !== undefined && !HTTP_URL.test(webhookUrl)) {
      throw new UsageError(`--webhook-url must be an http(s) URL, got "${webhookUrl}"`)
    }
    const duplicates = this.str('webhook-duplicates') ?? '0'
    if (!/^(?:0(?:\.[0-9]+)?|1(?:\.0+)?|\.[0-9]+)$/.test(duplicates))
      throw new UsageError(`--webhook-duplicates must be a probability from 0 to 1, like 0.2, got "${duplicates}"`)
    return { webhookUrl, webhookDuplicates: Number(duplicates) }
  }
}

/** The config file in force, loaded; --help and --version work even when it is broken. */
function configOf(
  values: ParsedValues,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { file: ConfigFile; configFile: string | undefined } {
  const named = (values.config as string | undefined) ?? envValue(env, 'config')
  const configFile = values.help || values.version ? undefined : findConfigFile(named, cwd)
  if (configFile === undefined) return { file: {}, configFile }
  try {
    return { file: loadConfigFile(configFile), configFile }
  } catch (error) {
    if (error instanceof ConfigFileError) throw new UsageError(error.message)
    throw error
  }
}

/**
 * Parses argv (without node and script), the environment and the config file into settings.
 * Precedence: flags > environment > config file (`--config`, `SENDBOX_CONFIG`, or
 * `sendbox.config.json` in `cwd`) > defaults.
 */
export function parseCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): CliSettings {
  const { values, command } = parseArgv(argv)
  const { file, configFile } = configOf(values, env, cwd)
  const from = new SettingSources(values, env, file, configFile)
  const adminToken = from.adminToken()
  return {
    command,
    url: typeof values.url === 'string' ? values.url : from.fromEnv('url'),
    port: from.whole('port'),
    host: from.str('host')!,
    apiKeys: from.apiKeys(),
    limits: from.limits(),
    seed: from.whole('seed'),
    subscribers: from.whole('subscribers'),
    fixtures: from.str('fixtures'),
    deliveryMs: from.whole('delivery-ms'),
    maxMessages: from.whole('max-messages'),
    maxRequests: from.whole('max-requests'),
    maxOutboxMb: from.whole('max-outbox-mb'),
    maxWaiters: from.whole('max-waiters'),
    maxEventClients: from.whole('max-event-clients'),
    threads: from.whole('threads'),
    ...from.webhook(),
    webhookSecret: from.str('webhook-secret'),
    templates: from.str('templates'),
    adminToken,
    teamTokens: teamTokensOf(
      values['team-token'] as string[] | undefined,
      from.envList('team-token'),
      file.teamToken,
      configFile,
      adminToken,
    ),
    corsOrigins: from.list('cors-origin', parseCorsOrigin),
    allowedHosts: from.list('allowed-host', parseAllowedHost),
    ui: !values['no-ui'] && !envFlag(from.fromEnv('no-ui'), 'no-ui') && file.ui !== false,
    configFile,
    data: from.str('data'),
    logFormat: logFormatOf(from.str('log-format')!),
    emailClients: from.list('email-clients', (value) => value).flatMap((value) => parseEmailClients(value)),
    spamassassin: spamdOf(from.str('spamassassin')),
  }
}

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

function logFormatOf(raw: string): 'text' | 'json' {
  if (raw === 'text' || raw === 'json') return raw
  throw new UsageError(`--log-format must be text or json, got "${raw}"`)
}

/** `sendbox --help`, generated from {@link SETTINGS}. */
export function helpText(): string {
  const lines = [
    'sendbox — a local sandbox of the messaging and subscriber API (nothing is ever delivered)',
    '',
    'Usage: sendbox [serve] [flags]     start the server (terminal UI on a TTY, log lines otherwise)',
    '       sendbox keys [flags]        print the API keys, plans and limits in force',
    '       sendbox openapi [flags]     print the OpenAPI 3.1 document of the API and the sandbox controls',
    '       sendbox mcp [--url URL]     a Model Context Protocol server over stdio (tools: messages, requests, faults, clock, reset)',
    "       sendbox check FILE.html|-   check an email's HTML (or `--channel sms --text …`) and print its report; exit 1 on an error (`sendbox check --help`)",
    '',
    'Flags:',
  ]
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const spec: Setting = SETTINGS[name]
    const left = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` ${spec.value}` : ''}`
    const variable = envOf(name)
    const separated = spec.separator ? `, ${spec.separator === ',' ? 'comma' : 'semicolon'}-separated` : ''
    const extras = [
      spec.default !== undefined ? `default ${spec.default}` : '',
      variable ? `env ${variable}${separated}` : '',
    ]
      .filter(Boolean)
      .join('; ')
    lines.push(`  ${left.padEnd(34)} ${spec.help}${extras ? ` (${extras})` : ''}`)
  }
  lines.push(
    '',
    `Precedence: flags > environment > config file (${CONFIG_FILE_NAME}: the flags' names in camelCase, e.g. {"port": 4011, "apiKeys": ["k:pro"], "limits": {"pro": 50}}) > defaults.`,
  )
  return lines.join('\n')
}

/**
 * The README's settings table (between `<!-- settings:begin -->` and `<!-- settings:end -->`),
 * generated from {@link SETTINGS}: `npm run docs:tables` writes it, test/cli/readme-flags.test.ts
 * fails when the README's differs.
 */
export function settingsTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  const rows = ['| flag | what | default | env | config file | in-process option |', '|---|---|---|---|---|---|']
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const spec: Setting = SETTINGS[name]
    if (spec.commandLineOnly) continue
    const flag = `\`--${name}${spec.value ? ` ${spec.value}` : ''}\`${spec.short ? `, \`-${spec.short}\`` : ''}${spec.kind === 'list' ? ' (repeatable)' : ''}`
    const variable = envOf(name)
    const env = variable
      ? `\`${variable}\`${spec.separator ? ` (${spec.separator === ',' ? 'comma' : 'semicolon'}-separated)` : spec.kind === 'switch' ? ' (1/true/yes)' : ''}`
      : ''
    const inFile = spec.config || spec.kind === 'whole' || spec.kind === 'switch' ? `\`${configKeyOf(name)}\`` : ''
    const inProcess = spec.option
      ? `\`${spec.option}\``
      : spec.serverOption
        ? `\`${spec.serverOption}\` (\`startServer\`)`
        : ''
    rows.push(
      `| ${cell(flag)} | ${cell(spec.help)} | ${cell(spec.defaultText ?? spec.default ?? '')} | ${env} | ${inFile} | ${inProcess} |`,
    )
  }
  return rows.join('\n')
}
