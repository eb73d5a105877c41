/** Whatever a request's handling threw, as the API's error object: an ApiError as it is, a ZodError as 400 naming the field, anything else a 500 that names no detail. */
import { z } from 'zod'
import { ApiError } from '../domain/errors.js'
import type { WireRequest } from './body.js'

/**
 * The one error path: whatever a guard or resolver threw becomes an {@link ApiError} — as is,
 * from a ZodError (a control's body or query), or a 500 without a stack for anything else.
 */
export function toApiError(error: unknown, request?: WireRequest): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof z.ZodError) return fromZodError(error)
  // The client went away (a long poll, a stream): nobody reads this answer, and it is no sandbox bug.
  if (request?.signal.aborted) return new ApiError('invalid_request', 'The request was aborted by the client.')
  // Unexpected failures are a sendbox bug: say so on stderr, never in the response body.
  console.error('[sendbox] unexpected error while handling a request:', error)
  return new ApiError(
    'internal_error',
    'Unexpected sandbox failure. This is a bug in sendbox; the request journal has the details.',
  )
}

/**
 * A ZodError (first issue) as the API's 400: unknown → missing → invalid, naming the field.
 * `input` is what was parsed, when known: zod's issues do not carry the value.
 */
export function fromZodError(error: z.ZodError, input?: unknown): ApiError {
  const issue = error.issues[0]
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
  const param = path.join('.').replace(/\.\[/g, '[')
  if (issue.code === 'unrecognized_keys') {
    const unknown = [param, issue.keys[0]].filter(Boolean).join('.')
    return new ApiError('unknown_parameter', `Unknown parameter \`${unknown}\`.`, unknown)
  }
  const absent =
    input === undefined ? /received undefined/.test(issue.message) : valueAt(input, issue.path) === undefined
  if (issue.code === 'invalid_type' && absent) {
    return new ApiError('missing_parameter', `Missing required parameter \`${param}\`.`, param || undefined)
  }
  const message = issue.code === 'invalid_type' ? `\`${param}\` must be a ${issue.expected}.` : issue.message
  return new ApiError('invalid_parameter', message, param || undefined)
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}
