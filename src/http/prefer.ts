import { ApiError, isForceableStatus } from '../domain/errors.js'

/** Longest `Prefer: delay` (and fault `delay_ms`) in milliseconds. */
export const MAX_DELAY_MS = 60_000

/** What a `Prefer` header asks for. */
export interface Preference {
  /** Answer with this status (and its error object) instead of running the endpoint. */
  code?: number
  /** Delay the answer by this many milliseconds. */
  delay?: number
}

const EXAMPLE = { code: 'code=500', delay: 'delay=250' } as const

/**
 * Parses `Prefer: code=500, delay=250` (Prism's convention). Other preferences (`return=minimal`)
 * are ignored, as RFC 7240 asks. A value that is digits but out of range is reported as out of
 * range ("at most 60000"), not as "not a whole number".
 */
export function parsePrefer(header: string | null): Preference {
  if (header === null) return {}
  const out: Preference = {}
  for (const part of header.split(/[,;]/)) {
    const [name, value = ''] = part.split('=').map((s) => s.trim())
    if (name !== 'code' && name !== 'delay') continue
    if (!/^[0-9]+$/.test(value)) {
      throw new ApiError(
        'invalid_parameter',
        `Invalid \`Prefer: ${part.trim().slice(0, 60)}\`: ${name} takes a whole number, like \`Prefer: ${EXAMPLE[name]}\`.`,
      )
    }
    // Digits only: Number() of a long run is a huge (or infinite) number, which the range checks below refuse.
    out[name] = Number(value)
  }
  if (out.code !== undefined && out.code >= 300 && !isForceableStatus(out.code)) {
    throw new ApiError(
      'invalid_parameter',
      `\`Prefer: code=${out.code > 999 ? String(out.code).slice(0, 12) : out.code}\` is not a status this API answers with. Use 400, 401, 404, 429 or a 5xx.`,
    )
  }
  if (out.delay !== undefined && out.delay > MAX_DELAY_MS) {
    throw new ApiError('invalid_parameter', `\`Prefer: delay\` may be at most ${MAX_DELAY_MS} milliseconds.`)
  }
  return out
}
