import { z } from 'zod'

/**
 * Query parameters as the route table declares them: each a schema over the raw string of the
 * URL (absent: undefined), whose `pattern` is the exact rule — so the OpenAPI document and the
 * server judge a query alike. A pattern is the rule, not an approximation: `limit` lists 1..100
 * as digit strings rather than "an integer", because `1.0` and `1e1` are integers to a JSON
 * Schema validator and not to the API.
 */

const shown = (input: unknown) => JSON.stringify(String(input).slice(0, 50))

/** `page`: digits only (leading zeros fine), at least 1, no upper bound — a page past the end is `data: []`. */
export const pageParam = z
  .string()
  .regex(/^0*[1-9][0-9]*$/, { error: (issue) => `Query parameter \`page\` must be a whole number of at least 1, in digits only (got ${shown(issue.input)}).` })
  // Past 2^53 − 1 precision goes, but any such page is past the end all the same; never Infinity (JSON has none).
  .transform((value) => Math.min(Number(value), Number.MAX_VALUE))
  .optional()
  .meta({ description: 'Page number, from 1 (default 1). Decimal digits only; a page past the end answers `data: []`.' })

/** `limit`: digits only, 1 to 100 (never clamped). */
export const limitParam = z
  .string()
  .regex(/^0*(?:[1-9][0-9]?|100)$/, { error: (issue) => `Query parameter \`limit\` must be a whole number from 1 to 100, in digits only (got ${shown(issue.input)}).` })
  .transform(Number)
  .optional()
  .meta({ description: 'Page size, 1 to 100 (default 20). Decimal digits only; never clamped: out of range is 400.' })

/** The pagination pair every list takes. */
export const pageQuery = { page: pageParam, limit: limitParam }

/** An ISO 8601 UTC-or-offset date-time (date alone allowed), or Unix milliseconds. */
export const SINCE_PATTERN = /^(?:[0-9]{1,308}|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:[0-9]{2}))?)$/

/** `since`: ISO 8601 or Unix milliseconds; converted to Unix milliseconds. */
export const sinceParam = z
  .string()
  .regex(SINCE_PATTERN, { error: (issue) => `Query parameter \`since\` must be an ISO 8601 time (2026-11-22T12:00:00Z) or Unix milliseconds (got ${shown(issue.input)}).` })
  .transform((value, ctx) => {
    const ms = /^[0-9]+$/.test(value) ? Number(value) : Date.parse(value)
    if (!Number.isFinite(ms)) {
      ctx.issues.push({ code: 'custom', input: value, message: `Query parameter \`since\` is not a real time (got ${shown(value)}).` })
      return z.NEVER
    }
    return ms
  })
  .optional()
  .meta({ description: 'ISO 8601 time (`2026-11-22T12:00:00Z`, offset or date alone allowed) or Unix milliseconds: only what happened at or after it.' })

/** One of a fixed list of values. */
export function enumParam<const T extends readonly [string, ...string[]]>(name: string, values: T, description: string) {
  return z
    .enum(values as unknown as { [K in T[number]]: K }, { error: (issue) => `Query parameter \`${name}\` must be one of ${values.join(', ')} (got ${shown(issue.input)}).` })
    .optional()
    .meta({ description })
}

/** Longest free-text query value (a filter's needle). */
export const MAX_TEXT_PARAM = 1024

/** Free text (a substring or an exact value, as the description says), at most {@link MAX_TEXT_PARAM} characters. */
export function textParam(name: string, description: string) {
  return z
    .string()
    .max(MAX_TEXT_PARAM, { error: `Query parameter \`${name}\` may be at most ${MAX_TEXT_PARAM} characters.` })
    .optional()
    .meta({ description })
}

/** A yes/no switch: `1` or `true` turns it on, `0` or `false` off. */
export function flagParam(name: string, description: string) {
  return z
    .enum(['1', 'true', '0', 'false'], { error: (issue) => `Query parameter \`${name}\` must be 1 or 0 (got ${shown(issue.input)}).` })
    .transform((value) => value === '1' || value === 'true')
    .optional()
    .meta({ description })
}

/** A number of milliseconds as digits, from 0 to `max`. */
export function millisecondsParam(name: string, max: number, fallback: number, description: string) {
  if (max !== 60_000) throw new Error('millisecondsParam: only 60000 has a pattern')
  return z
    .string()
    .regex(/^0*(?:[0-9]{1,4}|[1-5][0-9]{4}|60000)$/, { error: (issue) => `Query parameter \`${name}\` must be a whole number of milliseconds from 0 to ${max} (got ${shown(issue.input)}).` })
    .transform(Number)
    .optional()
    .meta({ description: `${description} Default ${fallback}, at most ${max}.` })
}
