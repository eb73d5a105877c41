import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { z } from 'zod'
import { PLANS } from '../contract/constants.js'
import { CONFIG_FILE_NAME, configFileSchema } from '../contract/config-file-schema.js'

export { CONFIG_FILE_NAME, configFileSchema }

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
    .filter(
      (first): first is z.core.$ZodIssue =>
        first !== undefined && !(first.code === 'invalid_type' && first.path.length === 0),
    )
    .sort((a, b) => b.path.length - a.path.length)[0]
  return best ? mostSpecific({ ...best, path: [...issue.path, ...best.path] } as z.core.$ZodIssue) : issue
}

function describeIssue(unionIssue: z.core.$ZodIssue, value: unknown): string {
  const issue = mostSpecific(unionIssue)
  const path = issue.path
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
    .join('')
    .replace(/^\./, '')
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
    throw new ConfigFileError(
      code === 'ENOENT'
        ? `config file ${shown} not found; check the --config path`
        : `cannot read config file ${shown}: ${(error as Error).message}`,
    )
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new ConfigFileError(
      `${shown} is not valid JSON (${(error as Error).message}); check for trailing commas and comments, which JSON does not allow`,
    )
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigFileError(`${shown} must hold a JSON object, like {"port": 4010}`)
  }
  const result = configFileSchema.safeParse(raw, {
    error: (issue) =>
      issue.code === 'invalid_type'
        ? `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`
        : undefined,
  })
  if (!result.success) {
    const [first, ...others] = result.error.issues
    throw new ConfigFileError(
      `${shown}: ${describeIssue(first, raw)}${others.length > 0 ? ` (and ${others.length} more problem${others.length > 1 ? 's' : ''})` : ''}`,
    )
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
