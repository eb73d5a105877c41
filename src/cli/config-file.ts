import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { z } from 'zod'
import { adminTokenProblem } from '../domain/admin-token.js'
import { PLANS } from '../domain/plans.js'

/** The file `sendbox` reads from the working directory when no `--config` is given. */
export const CONFIG_FILE_NAME = 'sendbox.config.json'

/**
 * Bounds of the numeric settings. One table for the flags, the environment and the file, so a
 * value is accepted or refused the same way wherever it comes from.
 */
export const NUMERIC_RANGES = {
  port: [0, 65535],
  seed: [0, 2 ** 31 - 1],
  subscribers: [0, 1_000_000],
  'delivery-ms': [0, 3_600_000],
  'max-messages': [1, 10_000_000],
  'max-requests': [1, 10_000_000],
  'max-outbox-mb': [1, 1_000_000],
  'max-waiters': [1, 100_000],
  'max-event-clients': [1, 100_000],
  // Node 20 cannot share a listening socket between threads: HTTP runs on one worker at most.
  threads: [1, 2],
  limit: [1, 1_000_000],
} as const satisfies Record<string, readonly [number, number]>

const whole = (range: readonly [number, number]) =>
  z.int({ error: (issue) => (issue.code === 'invalid_type' ? `must be a whole number from ${range[0]} to ${range[1]}` : undefined) })
    .min(range[0], { error: `must be a whole number from ${range[0]} to ${range[1]}` })
    .max(range[1], { error: `must be a whole number from ${range[0]} to ${range[1]}` })

const plan = z.string().transform((value, ctx) => {
  const lower = value.toLowerCase()
  if (!(PLANS as readonly string[]).includes(lower.split(':')[0])) {
    ctx.issues.push({ code: 'custom', input: value, message: `must be a plan (${PLANS.join(', ')}), optionally with ":ACCOUNT", like "pro" or "pro:acme"` })
    return z.NEVER
  }
  return value
})

/**
 * `sendbox.config.json`. Keys are the flags' names in camelCase; every field is optional and a
 * flag or an environment variable overrides it. Unknown fields are refused, so a typo
 * (`"prot": 4011`) is an error instead of a silent default.
 */
export const configFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    port: whole(NUMERIC_RANGES.port).optional(),
    host: z.string().min(1, { error: 'must be a non-empty host name or address, like "127.0.0.1"' }).optional(),
    apiKeys: z
      .union([
        z.array(z.string(), { error: 'must be a list of "KEY:PLAN[:ACCOUNT]" strings or an object of KEY → PLAN' }).min(1, { error: 'must list at least one key' }),
        z.record(z.string(), plan),
      ], { error: 'must be a list of "KEY:PLAN[:ACCOUNT]" strings, or an object like {"my_key": "pro"}' })
      .optional(),
    limits: z
      .strictObject(Object.fromEntries(PLANS.map((p) => [p, whole(NUMERIC_RANGES.limit).optional()])) as Record<(typeof PLANS)[number], z.ZodOptional<ReturnType<typeof whole>>>)
      .optional(),
    seed: whole(NUMERIC_RANGES.seed).optional(),
    subscribers: whole(NUMERIC_RANGES.subscribers).optional(),
    fixtures: z.string().min(1).optional(),
    deliveryMs: whole(NUMERIC_RANGES['delivery-ms']).optional(),
    maxMessages: whole(NUMERIC_RANGES['max-messages']).optional(),
    maxRequests: whole(NUMERIC_RANGES['max-requests']).optional(),
    webhookUrl: z.string().regex(/^https?:\/\/\S+$/, { error: 'must be an http(s) URL, like "http://127.0.0.1:3000/hooks"' }).optional(),
    webhookSecret: z.string().min(1).optional(),
    webhookDuplicates: z.number({ error: 'must be a probability from 0 to 1, like 0.2' }).min(0, { error: 'must be a probability from 0 to 1, like 0.2' }).max(1, { error: 'must be a probability from 0 to 1, like 0.2' }).optional(),
    templates: z.string().min(1, { error: 'must be the path of a WhatsApp templates file' }).optional(),
    maxOutboxMb: whole(NUMERIC_RANGES['max-outbox-mb']).optional(),
    maxWaiters: whole(NUMERIC_RANGES['max-waiters']).optional(),
    maxEventClients: whole(NUMERIC_RANGES['max-event-clients']).optional(),
    threads: whole(NUMERIC_RANGES.threads).optional(),
    adminToken: z.string().refine((token) => adminTokenProblem(token) === undefined, { error: 'must be a non-blank token without whitespace' }).optional(),
    corsOrigin: z.union([z.string(), z.array(z.string())], { error: 'must be an origin like "http://app.test:3000" or a list of them' }).optional(),
    allowedHost: z.union([z.string(), z.array(z.string())], { error: 'must be a host name like "my-box.lan" or a list of them' }).optional(),
    ui: z.boolean({ error: 'must be true or false' }).optional(),
    data: z.string().min(1, { error: 'must be the path of the store file, like "./sandbox.db"' }).optional(),
    logFormat: z.enum(['text', 'json'], { error: 'must be "text" or "json"' }).optional(),
    teamToken: z
      .array(
        z.union([
          z.string(),
          z.strictObject({ name: z.string(), token: z.string(), accounts: z.array(z.string()).min(1, { error: 'must name at least one account' }) }),
        ], { error: 'each must be "NAME:TOKEN:ACCOUNT[,ACCOUNT…]" or {"name", "token", "accounts": [...]}' }),
        { error: 'must be a list of team tokens: "NAME:TOKEN:ACCOUNT[,ACCOUNT…]" or {"name", "token", "accounts": [...]}' },
      )
      .optional(),
  })
  .meta({ id: 'SendboxConfig', description: 'sendbox.config.json: settings for the `sendbox` CLI. Flags and environment variables override it.' })

/** A validated config file. */
export type ConfigFile = z.output<typeof configFileSchema>

/** A config file that cannot be used; the message is one line that names the file and the field. */
export class ConfigFileError extends Error {}

/**
 * A union (`apiKeys` takes a list or an object) reports "no branch matched"; the useful message
 * is the one of the branch the value was meant for: the one that got furthest into it.
 */
function mostSpecific(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue
  const best = issue.errors
    .map((branch) => branch[0])
    .filter((first): first is z.core.$ZodIssue => first !== undefined && !(first.code === 'invalid_type' && first.path.length === 0))
    .sort((a, b) => b.path.length - a.path.length)[0]
  return best ? mostSpecific({ ...best, path: [...issue.path, ...best.path] } as z.core.$ZodIssue) : issue
}

function describeIssue(unionIssue: z.core.$ZodIssue, value: unknown): string {
  const issue = mostSpecific(unionIssue)
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '')
  if (issue.code === 'unrecognized_keys') {
    const where = path ? `\`${path}\`` : 'the top level'
    const known = path === 'limits' ? PLANS : Object.keys(configFileSchema.shape).filter((k) => k !== '$schema')
    return `unknown field \`${issue.keys[0]}\` in ${where}; known fields: ${known.join(', ')}`
  }
  let got = value
  for (const key of issue.path) got = (got as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey]
  const shown = got === undefined ? '' : ` (got ${JSON.stringify(got)?.slice(0, 60)})`
  return `\`${path}\` ${issue.message}${shown}`
}

/**
 * Reads and validates a config file. Paths inside it (`fixtures`) are resolved against the
 * file's own directory, so the file works from any working directory.
 */
export function loadConfigFile(path: string): ConfigFile {
  const shown = path
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new ConfigFileError(code === 'ENOENT' ? `config file ${shown} not found; check the --config path` : `cannot read config file ${shown}: ${(error as Error).message}`)
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new ConfigFileError(`${shown} is not valid JSON (${(error as Error).message}); check for trailing commas and comments, which JSON does not allow`)
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigFileError(`${shown} must hold a JSON object, like {"port": 4010}`)
  }
  const result = configFileSchema.safeParse(raw, {
    error: (issue) => (issue.code === 'invalid_type' ? `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}` : undefined),
  })
  if (!result.success) {
    const [first, ...others] = result.error.issues
    throw new ConfigFileError(`${shown}: ${describeIssue(first, raw)}${others.length > 0 ? ` (and ${others.length} more problem${others.length > 1 ? 's' : ''})` : ''}`)
  }
  const config = result.data
  if (config.fixtures !== undefined) config.fixtures = resolve(dirname(resolve(path)), config.fixtures)
  if (config.templates !== undefined) config.templates = resolve(dirname(resolve(path)), config.templates)
  if (config.data !== undefined) config.data = resolve(dirname(resolve(path)), config.data)
  return config
}

/**
 * The config file in force: the one named (which must exist), else `sendbox.config.json` in
 * `cwd` when there is one, else none.
 */
export function findConfigFile(named: string | undefined, cwd: string): string | undefined {
  if (named !== undefined) return resolve(cwd, named)
  const implicit = resolve(cwd, CONFIG_FILE_NAME)
  return existsSync(implicit) ? implicit : undefined
}

/** `apiKeys` of the file as `KEY:PLAN[:ACCOUNT]` specs, in the order written. */
export function configKeySpecs(config: ConfigFile): string[] | undefined {
  const keys = config.apiKeys
  if (keys === undefined) return undefined
  return Array.isArray(keys) ? keys : Object.entries(keys).map(([key, value]) => `${key}:${value}`)
}
