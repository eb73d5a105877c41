/**
 * The kinds of value a setting takes and the schemas its rows share (issue 34: cut from
 * settings.ts when the formatter grew it past 400 lines). The table itself is settings.ts.
 */
import { z } from 'zod'
import { PLANS } from './constants.js'

export interface Setting {
  /** How the value is read: a whole number in `range`, text, a switch, a repeatable list, a probability, one of `choices`. */
  kind: 'whole' | 'text' | 'switch' | 'list' | 'probability' | 'choice'
  /** One-letter flag. */
  short?: string
  /** The environment variable, when not `SENDBOX_` + the flag in upper snake case. */
  env?: string
  /** Command-line only: no environment variable, no config key. */
  commandLineOnly?: true
  /** How a list's items are separated in the environment. */
  separator?: ',' | ';'
  /** The value's placeholder in `--help` (`N`, `FILE`). */
  value?: string
  /** The default as the CLI applies it. */
  default?: string
  /** The default in words for the README, when it is not a plain value or needs a word more. */
  defaultText?: string
  /** Bounds of a whole number, for the flag, the environment, the file and the in-process option alike. */
  range?: readonly [number, number]
  choices?: readonly string[]
  /** One line for `--help`. */
  help: string
  /** The config file's schema of it; absent: not in the config file (but a whole number or a switch, which have one by their kind). */
  config?: z.ZodType
  /** Its key in the config file, when not the flag in camelCase (without `no-`). */
  configKey?: string
  /** Its field in the CLI's parsed settings, when not the flag in camelCase without `no-` (a list: plural). */
  key?: string
  /** The `createSandbox` option it sets, if any. */
  option?: string
  /** The `startServer` option it sets, if any. */
  serverOption?: string
}

/** A whole number from `range[0]` to `range[1]`, with the message every source shares. */
export function wholeSchema(range: readonly [number, number]) {
  const error = `must be a whole number from ${range[0]} to ${range[1]}`
  return z
    .int({ error: (issue) => (issue.code === 'invalid_type' ? error : undefined) })
    .min(range[0], { error })
    .max(range[1], { error })
}

/**
 * Why an admin token cannot be used, or undefined when it can (undefined = no token: fine). An
 * empty or blank one would be matched by an empty `X-Sendbox-Admin-Token:` header and open every
 * control (issue 11), so it is refused wherever it comes from: flag, environment, config file,
 * in-process option.
 */
export function adminTokenProblem(token: string | undefined): string | undefined {
  if (token === undefined) return undefined
  if (typeof token !== 'string') return 'the admin token must be a string'
  if (token.trim() === '')
    return 'the admin token is empty; give a non-blank token, or none to leave /__sandbox open on loopback'
  if (/\s/.test(token)) return 'the admin token may not contain whitespace (a header could not carry it intact)'
  return undefined
}

/** An http(s) URL without whitespace: a webhook's target, from a flag, the environment or the file. */
export const HTTP_URL = /^https?:\/\/\S+$/

export const PROBABILITY_ERROR = 'must be a probability from 0 to 1, like 0.2'
export const planSpec = z.string().transform((value, ctx) => {
  if (!(PLANS as readonly string[]).includes(value.toLowerCase().split(':')[0])) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `must be a plan (${PLANS.join(', ')}), optionally with ":ACCOUNT", like "pro" or "pro:acme"`,
    })
    return z.NEVER
  }
  return value
})
export const LIMIT_RANGE = [1, 1_000_000] as const
export const path = (what: string) => z.string().min(1, { error: `must be the path of ${what}` })
export const names = (error: string) => z.union([z.string(), z.array(z.string())], { error })
