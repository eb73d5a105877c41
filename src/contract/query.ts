import { z } from 'zod'

/**
 * Query parameters as the route table declares them: each a schema over the raw string of the
 * URL (absent: undefined), whose `pattern` is the exact rule — so the OpenAPI document and the
 * server judge a query alike. A pattern is the rule, not an approximation: `limit` lists 1..100
 * as digit strings rather than "an integer", because `1.0` and `1e1` are integers to a JSON
 * Schema validator and not to the API.
 */

const shown = (input: unknown) => JSON.stringify(String(input).slice(0, 50))

/** The highest `page`: any page past the end answers `data: []`, and this one is still echoed exactly. */
export const MAX_PAGE = 1_000_000_000

/** `page`: digits only (leading zeros fine), 1 to {@link MAX_PAGE} — a page past the end is `data: []`. */
export const pageParam = z
  .string()
  .regex(/^0*(?:[1-9][0-9]{0,8}|1000000000)$/, {
    error: (issue) =>
      `Query parameter \`page\` must be a whole number from 1 to 1000000000, in digits only (got ${shown(issue.input)}).`,
  })
  .transform(Number)
  .optional()
  .meta({
    description:
      'Page number, from 1 to 1000000000 (default 1). Decimal digits only; a page past the end answers `data: []`; never clamped.',
  })

/** `limit`: digits only, 1 to 100 (never clamped). */
export const limitParam = z
  .string()
  .regex(/^0*(?:[1-9][0-9]?|100)$/, {
    error: (issue) =>
      `Query parameter \`limit\` must be a whole number from 1 to 100, in digits only (got ${shown(issue.input)}).`,
  })
  .transform(Number)
  .optional()
  .meta({ description: 'Page size, 1 to 100 (default 20). Decimal digits only; never clamped: out of range is 400.' })

/** The pagination pair every list takes. */
export const pageQuery = { page: pageParam, limit: limitParam }

/**
 * The latest time the sandbox holds, and so the latest `since`: 9999-12-31T23:59:59.999Z. Past it
 * (and well before JavaScript's own limit, 8.64e15 ms, where `toISOString()` throws) timestamps,
 * rate-limit windows and lifecycle steps would fail; the clock never goes there either
 * (src/domain/clock.ts). Issue 27, N1 and N6.
 */
export const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/** An ISO 8601 UTC-or-offset date-time (date alone allowed), or Unix milliseconds. */
export const SINCE_PATTERN =
  /^(?:[0-9]{1,308}|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:[0-9]{2}))?)$/

/** `since`: ISO 8601 or Unix milliseconds; converted to Unix milliseconds. */
export const sinceParam = z
  .string()
  .regex(SINCE_PATTERN, {
    error: (issue) =>
      `Query parameter \`since\` must be an ISO 8601 time (2026-11-22T12:00:00Z) or Unix milliseconds (got ${shown(issue.input)}).`,
  })
  .transform((value, ctx) => {
    const ms = /^[0-9]+$/.test(value) ? Number(value) : Date.parse(value)
    if (!Number.isFinite(ms)) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `Query parameter \`since\` is not a real time (got ${shown(value)}).`,
      })
      return z.NEVER
    }
    if (ms < 0 || ms > LATEST_TIME_MS) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `Query parameter \`since\` must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z (Unix milliseconds 0 to ${LATEST_TIME_MS}; got ${shown(value)}).`,
      })
      return z.NEVER
    }
    return ms
  })
  .optional()
  .meta({
    description:
      'ISO 8601 time (`2026-11-22T12:00:00Z`, offset or date alone allowed) or Unix milliseconds: only what happened at or after it.',
  })

/** One of a fixed list of values. */
export function enumParam<const T extends readonly [string, ...string[]]>(
  name: string,
  values: T,
  description: string,
) {
  return z
    .enum(values as unknown as { [K in T[number]]: K }, {
      error: (issue) => `Query parameter \`${name}\` must be one of ${values.join(', ')} (got ${shown(issue.input)}).`,
    })
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
    .enum(['1', 'true', '0', 'false'], {
      error: (issue) => `Query parameter \`${name}\` must be 1 or 0 (got ${shown(issue.input)}).`,
    })
    .transform((value) => value === '1' || value === 'true')
    .optional()
    .meta({ description })
}

/** A number of milliseconds as digits, from 0 to `max`. */
export function millisecondsParam(name: string, max: number, fallback: number, description: string) {
  if (max !== 60_000) throw new Error('millisecondsParam: only 60000 has a pattern')
  return z
    .string()
    .regex(/^0*(?:[0-9]{1,4}|[1-5][0-9]{4}|60000)$/, {
      error: (issue) =>
        `Query parameter \`${name}\` must be a whole number of milliseconds from 0 to ${max} (got ${shown(issue.input)}).`,
    })
    .transform(Number)
    .optional()
    .meta({ description: `${description} Default ${fallback}, at most ${max}.` })
}
