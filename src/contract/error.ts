import { z } from 'zod'

/** Who answers a code: every route, the API's routes only, or the sandbox controls only. */
export type ErrorScope = 'all' | 'api' | 'controls'

/** One error code: the status it is always answered with, when, and by whom. */
export interface ErrorCodeEntry {
  /** The HTTP status; `ApiError` takes it from here, so a code cannot be answered with another. */
  readonly status: number
  /** When it is answered: one line, the "when" column of the errors table in docs/api.md. */
  readonly when: string
  readonly scope: ErrorScope
}

/**
 * Every error code sendbox answers with, API and controls, standalone transport included, in the
 * order the OpenAPI document lists them: the one place a code is declared. The errors table of
 * docs/api.md (`npm run docs:tables`), the OpenAPI descriptions and `ApiError`'s status read it;
 * `src/contract/error.test.ts` fails when a page or the OpenAPI document misses a code. A fault
 * may name its own `code` (snake_case), which is then answered as given.
 */
export const ERROR_CODES = {
  unauthorized: { status: 401, scope: 'all', when: 'missing, malformed or unknown API key' },
  rate_limit_exceeded: {
    status: 429,
    scope: 'api',
    when: "the plan's limit is used up (`Retry-After` says when to retry)",
  },
  not_found: { status: 404, scope: 'all', when: 'unknown path or wrong method under `/v1`, unknown subscriber id' },
  invalid_content_type: {
    status: 400,
    scope: 'all',
    when: 'a body without `Content-Type: application/json` (parameters such as `; charset=utf-8` are fine)',
  },
  invalid_json: {
    status: 400,
    scope: 'all',
    when: 'no body on POST/PUT, malformed JSON, invalid UTF-8, or JSON that is not an object',
  },
  payload_too_large: {
    status: 400,
    scope: 'all',
    when: 'a body over 1 MiB (413 is not in the real API; the server stops reading and closes the connection)',
  },
  unknown_parameter: {
    status: 400,
    scope: 'all',
    when: 'a field the endpoint does not take (`firstName`, `from.foo`, `__proto__`)',
  },
  missing_parameter: {
    status: 400,
    scope: 'all',
    when: 'a required field is absent; a subscriber without email and phone; `PUT {}`',
  },
  invalid_parameter: {
    status: 400,
    scope: 'all',
    when: 'wrong type (a number for a string, an array for `to`) or out of range; bad `page`/`limit`; bad `Prefer`',
  },
  invalid_email: {
    status: 400,
    scope: 'api',
    when: 'an email field (`to` of email, `from.email`, subscriber `email`) is not a valid address',
  },
  invalid_phone: {
    status: 400,
    scope: 'api',
    when: 'a phone field (`to` of SMS/WhatsApp, subscriber `phone`) is not E.164',
  },
  duplicate_email: { status: 400, scope: 'api', when: 'the account already has a subscriber with that email' },
  internal_error: { status: 500, scope: 'all', when: 'an unexpected failure (a sendbox bug), or a forced one' },
  invalid_request: {
    status: 400,
    scope: 'all',
    when: 'standalone server, below the API: malformed HTTP, headers over 16 KiB, an unknown `Expect`, no `Host` on HTTP/1.1, `TRACE`/`TRACK`/`CONNECT`, a body in more than 65,536 pieces, a request that took too long to arrive',
  },
  forbidden_host: {
    status: 403,
    scope: 'all',
    when: 'standalone server: the `Host` header names another host (DNS rebinding); see [Security](security.md)',
  },
  forbidden_origin: {
    status: 403,
    scope: 'controls',
    when: 'standalone server: a `/__sandbox` change from a web page whose origin is not allowed; see [Security](security.md)',
  },
  forbidden: {
    status: 403,
    scope: 'controls',
    when: "sandbox controls with a team token: another account's data, or what every account shares ([Teams](teams.md))",
  },
  wait_timeout: {
    status: 408,
    scope: 'controls',
    when: 'sandbox controls only: `GET /__sandbox/messages/wait` found no match in its `timeout` ([Waiting](waiting.md))',
  },
  too_many_clients: {
    status: 503,
    scope: 'controls',
    when: 'sandbox controls only: as many long-polls (`--max-waiters`) or event-stream clients (`--max-event-clients`) are held as allowed, or 16 screenshots already wait for their turn; `Retry-After` says when to try again',
  },
  not_ready: {
    status: 503,
    scope: 'controls',
    when: 'sandbox controls only: `GET /__sandbox/readyz` before the store has loaded (`Retry-After: 1`; `?wait=5s` holds the answer instead)',
  },
  method_not_allowed: {
    status: 405,
    scope: 'controls',
    when: '`GET` or `DELETE` on `/__sandbox/mcp` (the MCP endpoint is stateless: `POST` only; `Allow: POST`)',
  },
  not_available: {
    status: 501,
    scope: 'controls',
    when: 'sandbox controls only: a screenshot without headless Chromium or without `playwright-core`; the message says how to get them ([Message screenshots](message-screenshots.md))',
  },
  render_timeout: { status: 504, scope: 'controls', when: 'sandbox controls only: a screenshot took longer than 20 s' },
} as const satisfies Record<string, ErrorCodeEntry>

/** A code of {@link ERROR_CODES}. */
export type ErrorCodeName = keyof typeof ERROR_CODES

/** The codes, in the table's order. */
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCodeName, ...ErrorCodeName[]]

/** The codes a status is answered with, in the table's order, of the routes of `scope` (`all`: every code). */
export function codesOf(status: number, scope: ErrorScope = 'all'): ErrorCodeName[] {
  return ERROR_CODE_NAMES.filter((code) => {
    const entry: ErrorCodeEntry = ERROR_CODES[code]
    return entry.status === status && (scope === 'all' || entry.scope === 'all' || entry.scope === scope)
  })
}

/**
 * The errors table of docs/api.md (`npm run docs:tables` writes it; a test compares): every code,
 * by status, in the table's order within a status.
 */
export function errorsTable(): string {
  const rows = [...ERROR_CODE_NAMES]
    .sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status)
    .map((code) => `| ${ERROR_CODES[code].status} | \`${code}\` | ${ERROR_CODES[code].when} |`)
  return ['| status | code | when |', '|---|---|---|', ...rows].join('\n')
}

/** A code a fault may force instead of its status's own (`service_unavailable`). */
export const FAULT_CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/

/** The real service's error object: `{ error: { code, message } }`, optionally `param`. */
export const errorSchema = z
  .object({
    error: z.object({
      // The known codes, or any snake_case code a fault was armed with (answered as given).
      code: z.union([z.enum(ERROR_CODE_NAMES), z.string().regex(FAULT_CODE_PATTERN)]).meta({
        description:
          'Machine-readable code, snake_case (for example `invalid_email`): one of the codes listed, or the `code` a fault was armed with, answered as given.',
      }),
      message: z.string().meta({ description: 'Human-readable explanation that says how to fix the request.' }),
      param: z.string().optional().meta({
        description:
          "The offending field: dotted for nested keys (`from.email`), brackets for array items (`tags[3]`), the query parameter's name for a query.",
      }),
    }),
  })
  .meta({ id: 'Error' })

export type ErrorBody = z.infer<typeof errorSchema>
