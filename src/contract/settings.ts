/**
 * Every setting of sendbox, once: its flag, short flag, environment variable, default, bounds,
 * help line, config-file schema and in-process option. The CLI's parser and `--help`
 * (src/cli/options.ts), the config file's schema (src/cli/config-file.ts), the domain's defaults
 * (src/domain/sandbox.ts, outbox.ts) and the README's table (generated: `npm run docs:tables`,
 * checked by test/cli/readme-flags.test.ts) all read this table. See docs/decisions/settings.md.
 */
import { z } from 'zod'
import { DEFAULT_LIMITS, PLANS } from './constants.js'
import {
  adminTokenProblem,
  HTTP_URL,
  LIMIT_RANGE,
  names,
  path,
  planSpec,
  PROBABILITY_ERROR,
  wholeSchema,
  type Setting,
} from './setting-kinds.js'

export { adminTokenProblem, HTTP_URL, wholeSchema, type Setting } from './setting-kinds.js'

/** Every setting, in `--help` order. The key is the flag's name. */
export const SETTINGS = {
  port: {
    kind: 'whole',
    short: 'p',
    default: '4010',
    range: [0, 65535],
    value: 'N',
    help: 'port to listen on (0 = any free port)',
    serverOption: 'port',
  },
  host: {
    kind: 'text',
    default: '127.0.0.1',
    value: 'HOST',
    help: 'interface to bind (loopback by default)',
    config: z.string().min(1, { error: 'must be a non-empty host name or address, like "127.0.0.1"' }),
    serverOption: 'host',
  },
  'api-key': {
    kind: 'list',
    env: 'SENDBOX_API_KEYS',
    configKey: 'apiKeys',
    separator: ',',
    value: 'KEY:PLAN[:ACCOUNT]',
    defaultText: 'the three `test_` keys',
    option: 'apiKeys',
    help: 'an API key (repeatable; replaces the default test_ keys)',
    config: z.union(
      [
        z
          .array(z.string(), { error: 'must be a list of "KEY:PLAN[:ACCOUNT]" strings or an object of KEY → PLAN' })
          .min(1, { error: 'must list at least one key' }),
        z.record(z.string(), planSpec),
      ],
      { error: 'must be a list of "KEY:PLAN[:ACCOUNT]" strings, or an object like {"my_key": "pro"}' },
    ),
  },
  limit: {
    kind: 'list',
    env: 'SENDBOX_LIMITS',
    configKey: 'limits',
    separator: ',',
    range: LIMIT_RANGE,
    value: 'PLAN=N',
    defaultText: PLANS.map((plan) => DEFAULT_LIMITS[plan]).join(' / '),
    option: 'limits',
    help: 'requests per minute for a plan (starter, pro, enterprise; repeatable)',
    config: z.strictObject(
      Object.fromEntries(PLANS.map((p) => [p, wholeSchema(LIMIT_RANGE).optional()])) as Record<
        (typeof PLANS)[number],
        z.ZodOptional<ReturnType<typeof wholeSchema>>
      >,
    ),
  },
  seed: {
    kind: 'whole',
    default: '1',
    range: [0, 2 ** 31 - 1],
    value: 'N',
    help: 'faker seed for seeded subscribers and fault probabilities',
    option: 'seed',
  },
  subscribers: {
    kind: 'whole',
    default: '10',
    defaultText: '10 (in-process: 0)',
    range: [0, 1_000_000],
    value: 'N',
    help: 'seeded subscribers per account at start and at every reset',
    option: 'subscribers',
  },
  fixtures: {
    kind: 'text',
    value: 'FILE',
    help: 'JSON file of subscribers per account to load at start and every reset',
    config: path('a fixtures file'),
    option: 'fixtures',
  },
  'delivery-ms': {
    kind: 'whole',
    default: '1000',
    range: [0, 3_600_000],
    value: 'MS',
    help: 'milliseconds per lifecycle step of a captured message (0 = instant)',
    option: 'deliveryMs',
  },
  'max-messages': {
    kind: 'whole',
    default: '10000',
    range: [1, 10_000_000],
    value: 'N',
    help: 'outbox cap (oldest evicted first)',
    option: 'maxMessages',
  },
  'max-requests': {
    kind: 'whole',
    default: '1000',
    range: [1, 10_000_000],
    value: 'N',
    help: 'request journal cap',
    option: 'maxRequests',
  },
  'max-outbox-mb': {
    kind: 'whole',
    default: '256',
    range: [1, 1_000_000],
    value: 'MB',
    help: 'outbox byte budget besides the count (oldest evicted first)',
    option: 'maxOutboxBytes',
  },
  'max-waiters': {
    kind: 'whole',
    default: '1000',
    range: [1, 100_000],
    value: 'N',
    help: 'long-polls (/__sandbox/messages/wait) held at once; past it 503 with Retry-After',
    option: 'maxWaiters',
  },
  'max-event-clients': {
    kind: 'whole',
    default: '1000',
    range: [1, 100_000],
    value: 'N',
    help: 'event-stream clients (/__sandbox/events) at once; past it 503 with Retry-After',
    option: 'maxEventClients',
  },
  // Node 20 cannot share a listening socket between threads: HTTP runs on one worker at most.
  threads: {
    kind: 'whole',
    default: '1',
    range: [1, 2],
    value: 'N',
    help: 'threads serving HTTP: 1, or 2 to parse HTTP on a worker thread beside the sandbox (measured slower on 2 cores; docs/performance.md)',
    serverOption: 'threads',
  },
  'webhook-url': {
    kind: 'text',
    value: 'URL',
    defaultText: 'none',
    help: 'POST each lifecycle step of each message here',
    config: z.string().regex(HTTP_URL, { error: 'must be an http(s) URL, like "http://127.0.0.1:3000/hooks"' }),
    option: 'webhook',
  },
  'webhook-secret': {
    kind: 'text',
    value: 'SECRET',
    defaultText: 'generated and printed',
    help: 'Standard Webhooks secret (whsec_…) that signs every webhook; one is generated and printed when none is given',
    config: z.string().min(1),
    option: 'webhook',
  },
  'webhook-duplicates': {
    kind: 'probability',
    default: '0',
    value: 'P',
    help: 'send each webhook event twice (same webhook-id) with probability P, 0 to 1, seeded by --seed',
    config: z
      .number({ error: PROBABILITY_ERROR })
      .min(0, { error: PROBABILITY_ERROR })
      .max(1, { error: PROBABILITY_ERROR }),
    option: 'webhook',
  },
  templates: {
    kind: 'text',
    value: 'FILE',
    defaultText: 'none: any template accepted',
    help: 'WhatsApp templates, JSON {"templates":[{name,language,body,header?,footer?,buttons?}]}: every WhatsApp send is checked against them',
    config: path('a WhatsApp templates file'),
    option: 'templates',
  },
  'admin-token': {
    kind: 'text',
    value: 'TOKEN',
    defaultText: 'none on loopback',
    help: 'require this token for /__sandbox (one is generated when --host is not loopback)',
    config: z.string().refine((token) => adminTokenProblem(token) === undefined, {
      error: 'must be a non-blank token without whitespace',
    }),
    option: 'adminToken',
  },
  'team-token': {
    kind: 'list',
    env: 'SENDBOX_TEAM_TOKENS',
    separator: ';',
    value: 'NAME:TOKEN:ACCOUNT[,…]',
    defaultText: 'none',
    option: 'teamTokens',
    help: 'a token that opens /__sandbox and the web inbox for these accounts only (repeatable)',
    config: z.array(
      z.union(
        [
          z.string(),
          z.strictObject({
            name: z.string(),
            token: z.string(),
            accounts: z.array(z.string()).min(1, { error: 'must name at least one account' }),
          }),
        ],
        { error: 'each must be "NAME:TOKEN:ACCOUNT[,ACCOUNT…]" or {"name", "token", "accounts": [...]}' },
      ),
      {
        error: 'must be a list of team tokens: "NAME:TOKEN:ACCOUNT[,ACCOUNT…]" or {"name", "token", "accounts": [...]}',
      },
    ),
  },
  'cors-origin': {
    kind: 'list',
    env: 'SENDBOX_CORS_ORIGINS',
    separator: ',',
    value: 'ORIGIN',
    defaultText: 'loopback origins only',
    help: 'also grant CORS and /__sandbox changes to this origin (repeatable; loopback origins always; * = any, with a warning)',
    config: names('must be an origin like "http://app.test:3000" or a list of them'),
    serverOption: 'corsOrigins',
  },
  'allowed-host': {
    kind: 'list',
    env: 'SENDBOX_ALLOWED_HOSTS',
    separator: ',',
    value: 'HOST',
    defaultText: 'loopback names, IP addresses, the bound host',
    help: 'also answer requests whose Host is this name (repeatable; .example.test = and subdomains; loopback names and IPs always)',
    config: names('must be a host name like "my-box.lan" or a list of them'),
    serverOption: 'allowedHosts',
  },
  'email-clients': {
    kind: 'list',
    separator: ',',
    value: 'LIST',
    defaultText: 'every client',
    help: 'email clients whose compatibility counts for the check score (comma-separated client ids or families: gmail, outlook.windows, apple-mail…; docs/checks.md)',
    config: names('must be a client id like "outlook" or a list of them'),
    option: 'emailClients',
  },
  spamassassin: {
    kind: 'text',
    value: 'HOST:PORT',
    defaultText: 'none: no spam check',
    help: 'score checked emails with the SpamAssassin spamd at HOST:PORT (GET /__sandbox/messages/{id}/checks; docs/checks.md)',
    config: z
      .string()
      .regex(/^(?:\[[^\]]+\]|[^:\s]+):[0-9]{1,5}$/, { error: 'must be HOST:PORT, like "127.0.0.1:783"' }),
    option: 'spamassassin',
  },
  data: {
    kind: 'text',
    value: 'FILE',
    defaultText: 'none: memory only',
    help: 'keep subscribers, messages, the request journal, faults, opt-outs, webhook attempts and the clock in this SQLite file across restarts (created when missing; Node >= 22.13)',
    config: path('the store file, like "./sandbox.db"'),
    option: 'data',
  },
  'log-format': {
    kind: 'choice',
    choices: ['text', 'json'],
    default: 'text',
    value: 'text|json',
    help: 'without the terminal UI, one line per request: text, or one JSON object (time, method, path, status, ms)',
    config: z.enum(['text', 'json'], { error: 'must be "text" or "json"' }),
  },
  config: {
    kind: 'text',
    short: 'c',
    key: 'configFile',
    value: 'FILE',
    defaultText: './sendbox.config.json if present',
    help: 'JSON config file (default ./sendbox.config.json when present); flags and env override it',
  },
  'no-ui': { kind: 'switch', defaultText: 'UI on a TTY', help: 'log one line per request instead of the terminal UI' },
  url: {
    kind: 'text',
    value: 'URL',
    defaultText: "a sandbox in the MCP server's process",
    help: 'sendbox mcp: the running sandbox to drive, by its origin (default: start one in this process on --port)',
  },
  help: { kind: 'switch', short: 'h', commandLineOnly: true, help: 'show this help' },
  version: { kind: 'switch', short: 'v', commandLineOnly: true, help: 'print the version' },
} as const satisfies Record<string, Setting>

export type SettingName = keyof typeof SETTINGS

/** A setting's environment variable: its own, else `SENDBOX_` and its name in upper snake case; none for command-line-only ones. */
export function envOf(name: SettingName): string | undefined {
  const setting: Setting = SETTINGS[name]
  if (setting.commandLineOnly) return undefined
  return setting.env ?? `SENDBOX_${name.toUpperCase().replace(/-/g, '_')}`
}

/** `delivery-ms` → `deliveryMs`. */
export type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S
const camel = (name: string) =>
  name.replace(/^no-/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
export type ConfigKey<N extends SettingName> = (typeof SETTINGS)[N] extends { configKey: infer K extends string }
  ? K
  : Camel<N extends `no-${infer R}` ? R : N>
/** A setting's key in the config file: its own (`apiKeys`), else the flag in camelCase without `no-` (`delivery-ms` → `deliveryMs`, `no-ui` → `ui`). */
export function configKeyOf<N extends SettingName>(name: N): ConfigKey<N> {
  const setting: Setting = SETTINGS[name]
  return (setting.configKey ?? camel(name)) as ConfigKey<N>
}

type Plural<K extends string> = K extends `${string}s` ? K : `${K}s`
/** A setting's field in the CLI's parsed settings (`CliSettings`): its own `key`, else the flag in camelCase without `no-`, plural for a list. */
export type SettingKey<N extends SettingName> = (typeof SETTINGS)[N] extends { key: infer K extends string }
  ? K
  : (typeof SETTINGS)[N] extends { kind: 'list' }
    ? Plural<Camel<N>>
    : Camel<N extends `no-${infer R}` ? R : N>
/** The runtime twin of {@link SettingKey}: `team-token` → `teamTokens`, `no-ui` → `ui`, `config` → `configFile`. */
export function settingKeyOf<N extends SettingName>(name: N): SettingKey<N> {
  const setting: Setting = SETTINGS[name]
  const key = setting.key ?? camel(name)
  return (setting.key === undefined && setting.kind === 'list' && !key.endsWith('s') ? `${key}s` : key) as SettingKey<N>
}

/** Settings that exist on the command line only (`--help`, `--version`): they pick the command, not a value. */
export type CommandLineOnlyName = {
  [N in SettingName]: (typeof SETTINGS)[N] extends { commandLineOnly: true } ? N : never
}[SettingName]

/** The bounds of every whole-number setting. */
export type RangedName = {
  [N in SettingName]: (typeof SETTINGS)[N] extends { range: readonly [number, number] } ? N : never
}[SettingName]
export function rangeOf(name: RangedName): readonly [number, number] {
  return SETTINGS[name].range
}

/** A whole-number setting's default, as a number (what the in-process options fall back to). */
export function defaultOf(
  name: {
    [N in SettingName]: (typeof SETTINGS)[N] extends { kind: 'whole'; default: string } ? N : never
  }[SettingName],
): number {
  return Number(SETTINGS[name].default)
}
