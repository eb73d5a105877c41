import { ERROR_CODES, type ErrorCodeName } from '../contract/error.js'

/** A code a fault or `Prefer: code=` asks for (checked against the contract's pattern before it gets here). */
export type ForcedCode = string & { readonly forced: unique symbol }

/**
 * Error codes sendbox answers with: the contract's table (`ERROR_CODES`, which the OpenAPI
 * document publishes), or a code a fault forces. A typo in a literal code is a compile error.
 */
export type ErrorCode = ErrorCodeName | ForcedCode

export { ERROR_CODES }

declare const forcedAnswer: unique symbol

/**
 * A status and code a fault or `Prefer: code=` forces (a 503 `internal_error`, a 500
 * `service_unavailable`): the one answer whose status is not its code's. Only
 * {@link forcedError} makes one.
 */
export interface ForcedAnswer {
  readonly status: number
  readonly code: ErrorCode
  readonly [forcedAnswer]: true
}

/**
 * A failure that becomes the wire error `{ error: { code, message, param? } }`, with the status
 * the contract's table gives its code (a `duplicate_email` is always a 400).
 * Guards and resolvers throw it; one catch in the handlers formats it.
 *
 * @example
 * throw new ApiError('not_found', 'No subscriber with id "sub_x" in this account.')
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: ErrorCode

  constructor(
    code: ErrorCodeName | ForcedAnswer,
    message: string,
    readonly param?: string,
    /** Extra response headers, such as `Retry-After` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ApiError'
    if (typeof code === 'string') {
      this.code = code
      this.status = ERROR_CODES[code].status
    } else {
      this.code = code.code
      this.status = code.status
    }
  }

  /** The JSON body the real service answers with. */
  toBody(): { error: { code: string; message: string; param?: string } } {
    return this.param === undefined
      ? { error: { code: this.code, message: this.message } }
      : { error: { code: this.code, message: this.message, param: this.param } }
  }
}

/** The code a forced status answers with when a fault gives none. */
export function defaultCodeFor(status: number): ErrorCode {
  if (status === 400) return 'invalid_parameter'
  if (status === 401) return 'unauthorized'
  if (status === 404) return 'not_found'
  if (status === 429) return 'rate_limit_exceeded'
  return 'internal_error'
}

const forcedMessages: Record<string, string> = {
  invalid_parameter: 'Forced 400 answer (sandbox fault or `Prefer: code=400`).',
  unauthorized: 'Forced 401 answer (sandbox fault or `Prefer: code=401`).',
  not_found: 'Forced 404 answer (sandbox fault or `Prefer: code=404`).',
  rate_limit_exceeded:
    'Forced 429 answer (sandbox fault or `Prefer: code=429`). Wait for Retry-After seconds and try again.',
  internal_error: 'Forced server error (sandbox fault or `Prefer: code`). Retry with backoff.',
}

/** The `Retry-After` header of an answer that says when to try again (whole seconds): one place for every 429 and 503. */
export function retryAfterHeader(seconds: number): Record<string, string> {
  return { 'Retry-After': String(seconds) }
}

/**
 * An error answer forced by a fault or `Prefer: code=`. A forced 429 carries `Retry-After`, from
 * `retryAfter` (whole seconds), like a real one.
 */
export function forcedError(status: number, code: string | undefined, retryAfter: () => number): ApiError {
  // A fault's own code was checked against FAULT_CODE_PATTERN where the fault was armed.
  const finalCode: ErrorCode = (code as ForcedCode | undefined) ?? defaultCodeFor(status)
  const message = forcedMessages[finalCode] ?? `Forced ${status} answer with code \`${finalCode}\` (sandbox fault).`
  const forced = { status, code: finalCode } as ForcedAnswer
  return new ApiError(forced, message, undefined, status === 429 ? retryAfterHeader(retryAfter()) : {})
}

/** Statuses a fault or `Prefer: code=` may force: those of the reference's table, plus any 5xx. */
export function isForceableStatus(status: number): boolean {
  return status === 400 || status === 401 || status === 404 || status === 429 || (status >= 500 && status <= 599)
}
