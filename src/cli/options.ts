import { parseArgs } from 'node:util'
import {
  configKeyOf,
  envOf,
  settingKeyOf,
  SETTINGS,
  type CommandLineOnlyName,
  type Setting,
  type SettingKey,
  type SettingName,
} from '../contract/settings.js'
import { CONFIG_FILE_NAME, ConfigFileError, findConfigFile, loadConfigFile, type ConfigFile } from './config-file.js'
import { envValue, READERS, SettingSources, UsageError, type ParsedValues } from './setting-sources.js'

export { envOf, UsageError }

/** A row's value read by its kind: a number, a switch, one of its choices, a list, text (always there when it has a default). */
type ByKind<S> = S extends { kind: 'whole' | 'probability' }
  ? number
  : S extends { kind: 'switch' }
    ? boolean
    : S extends { kind: 'choice'; choices: readonly (infer C)[] }
      ? C
      : S extends { kind: 'list' }
        ? string[]
        : S extends { default: string }
          ? string
          : string | undefined

/** A setting's parsed value: its reader's (`READERS`), else by its kind. */
export type SettingValue<N extends SettingName> = N extends keyof typeof READERS
  ? ReturnType<(typeof READERS)[N]>
  : ByKind<(typeof SETTINGS)[N]>

/** The settings that have a value (every row but `--help` and `--version`, which pick the command). */
export type ValuedName = Exclude<SettingName, CommandLineOnlyName>

/**
 * The CLI's settings once parsed and checked: one field per row of the settings table
 * (src/contract/settings.ts), named by {@link settingKeyOf} (`delivery-ms` → `deliveryMs`,
 * `team-token` → `teamTokens`), typed by its reader or its kind, plus the command.
 */
export type CliSettings = { command: 'serve' | 'keys' | 'openapi' | 'mcp' | 'help' | 'version' } & {
  [N in ValuedName as SettingKey<N>]: SettingValue<N>
}

/** Every row that has a value, in the table's order. */
export const VALUED_SETTINGS = (Object.keys(SETTINGS) as SettingName[]).filter(
  (name): name is ValuedName => !(SETTINGS[name] as Setting).commandLineOnly,
)

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
  const settings: Record<string, unknown> = { command }
  for (const name of VALUED_SETTINGS) {
    settings[settingKeyOf(name)] = name in READERS ? READERS[name as keyof typeof READERS](from) : from.byKind(name)
  }
  return settings as CliSettings
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
