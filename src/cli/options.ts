import { parseArgs } from 'node:util'
import { parseKeySpec, PLANS, isPlan, type ApiKeyConfig, type Plan } from '../domain/plans.js'

/** One CLI flag: drives parsing, defaults, environment and `--help` from one table. */
interface FlagSpec {
  type: 'string' | 'boolean'
  multiple?: boolean
  short?: string
  env?: string
  default?: string
  value?: string
  help: string
}

/** Every flag of `sendbox`. */
export const FLAGS = {
  port: { type: 'string', short: 'p', env: 'SENDBOX_PORT', default: '4010', value: 'N', help: 'port to listen on (0 = any free port)' },
  host: { type: 'string', env: 'SENDBOX_HOST', default: '127.0.0.1', value: 'HOST', help: 'interface to bind (loopback by default)' },
  'api-key': { type: 'string', multiple: true, env: 'SENDBOX_API_KEYS', value: 'KEY:PLAN[:ACCOUNT]', help: 'an API key (repeatable; replaces the default test_ keys). Env: comma-separated' },
  limit: { type: 'string', multiple: true, value: 'PLAN=N', help: 'requests per minute for a plan (starter, pro, enterprise)' },
  seed: { type: 'string', default: '1', value: 'N', help: 'faker seed for seeded subscribers and fault probabilities' },
  subscribers: { type: 'string', default: '10', value: 'N', help: 'seeded subscribers per account at start and at every reset' },
  fixtures: { type: 'string', value: 'FILE', help: 'JSON file of subscribers per account to load at start and every reset' },
  'delivery-ms': { type: 'string', default: '1000', value: 'MS', help: 'milliseconds per lifecycle step of a captured message (0 = instant)' },
  'max-messages': { type: 'string', default: '10000', value: 'N', help: 'outbox cap (oldest evicted first)' },
  'max-requests': { type: 'string', default: '1000', value: 'N', help: 'request journal cap' },
  'webhook-url': { type: 'string', value: 'URL', help: 'POST each lifecycle step of each message here' },
  'webhook-secret': { type: 'string', value: 'SECRET', help: 'HMAC-SHA256 key for X-Sendbox-Signature' },
  'admin-token': { type: 'string', env: 'SENDBOX_ADMIN_TOKEN', value: 'TOKEN', help: 'require this token for /__sandbox (one is generated when --host is not loopback)' },
  'no-ui': { type: 'boolean', help: 'log one line per request instead of the terminal UI' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', short: 'v', help: 'print the version' },
} satisfies Record<string, FlagSpec>

export type FlagName = keyof typeof FLAGS

/** The CLI's settings once parsed and checked. */
export interface CliSettings {
  command: 'serve' | 'keys' | 'help' | 'version'
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
  webhookUrl: string | undefined
  webhookSecret: string | undefined
  adminToken: string | undefined
  ui: boolean
}

/** A bad command line: the message is the one line printed to stderr. */
export class UsageError extends Error {}

function wholeNumber(flag: string, raw: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

/** Parses argv (without node and script) and the environment into settings. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliSettings {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, raw]) => {
      const spec: FlagSpec = raw
      return [name, { type: spec.type, multiple: spec.multiple ?? false, ...(spec.short ? { short: spec.short } : {}) }]
    }),
  ) as NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}. Run \`sendbox --help\` for the flags.`)
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>
  const [command = 'serve', ...rest] = parsed.positionals
  if (rest.length > 0 || !['serve', 'keys'].includes(command)) {
    throw new UsageError(`unknown command "${parsed.positionals.join(' ')}". Commands: serve (default), keys. Run \`sendbox --help\`.`)
  }
  const str = (name: FlagName): string | undefined => {
    const spec: FlagSpec = FLAGS[name]
    const value = values[name]
    if (typeof value === 'string') return value
    if (spec.env && env[spec.env] !== undefined && env[spec.env] !== '') return env[spec.env]
    return spec.default
  }
  const keySpecs = (values['api-key'] as string[] | undefined) ?? env.SENDBOX_API_KEYS?.split(',').filter((s) => s.trim() !== '')
  let apiKeys: ApiKeyConfig[] | undefined
  if (keySpecs && keySpecs.length > 0) {
    try {
      apiKeys = keySpecs.map(parseKeySpec)
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
    const seen = new Set<string>()
    for (const { key } of apiKeys) {
      if (seen.has(key)) throw new UsageError(`API key "${key}" is given twice`)
      seen.add(key)
    }
  }
  const limits: Partial<Record<Plan, number>> = {}
  for (const spec of (values.limit as string[] | undefined) ?? []) {
    const match = /^([a-z]+)=([0-9]+)$/i.exec(spec)
    const plan = match?.[1].toLowerCase()
    if (!match || !plan || !isPlan(plan)) {
      throw new UsageError(`bad --limit "${spec}": expected PLAN=N with PLAN one of ${PLANS.join(', ')}`)
    }
    limits[plan] = wholeNumber('limit', match[2], 1, 1_000_000)
  }
  const webhookUrl = str('webhook-url')
  if (webhookUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(webhookUrl)) {
    throw new UsageError(`--webhook-url must be an http(s) URL, got "${webhookUrl}"`)
  }
  return {
    command: values.help ? 'help' : values.version ? 'version' : (command as 'serve' | 'keys'),
    port: wholeNumber('port', str('port')!, 0, 65535),
    host: str('host')!,
    apiKeys,
    limits,
    seed: wholeNumber('seed', str('seed')!, 0, 2 ** 31 - 1),
    subscribers: wholeNumber('subscribers', str('subscribers')!, 0, 1_000_000),
    fixtures: str('fixtures'),
    deliveryMs: wholeNumber('delivery-ms', str('delivery-ms')!, 0, 3_600_000),
    maxMessages: wholeNumber('max-messages', str('max-messages')!, 1, 10_000_000),
    maxRequests: wholeNumber('max-requests', str('max-requests')!, 1, 10_000_000),
    webhookUrl,
    webhookSecret: str('webhook-secret'),
    adminToken: str('admin-token'),
    ui: !values['no-ui'],
  }
}

/** `sendbox --help`, generated from {@link FLAGS}. */
export function helpText(): string {
  const lines = [
    'sendbox — a local sandbox of the messaging and subscriber API (nothing is ever delivered)',
    '',
    'Usage: sendbox [serve] [flags]     start the server (terminal UI on a TTY, log lines otherwise)',
    '       sendbox keys [flags]        print the API keys, plans and limits in force',
    '',
    'Flags:',
  ]
  for (const [name, raw] of Object.entries(FLAGS)) {
    const spec: FlagSpec = raw
    const left = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` ${spec.value}` : ''}`
    const extras = [spec.default !== undefined ? `default ${spec.default}` : '', spec.env ? `env ${spec.env}` : ''].filter(Boolean).join('; ')
    lines.push(`  ${left.padEnd(34)} ${spec.help}${extras ? ` (${extras})` : ''}`)
  }
  return lines.join('\n')
}
