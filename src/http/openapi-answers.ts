/**
 * The error answers, security schemes and references the OpenAPI document's routes point at
 * (openapi.ts builds the document; the codes come from the error table, src/contract/error.ts).
 */
import { codesOf, type ErrorScope } from '../contract/error.js'

export const COMPONENT_REF = '#/components/schemas/'
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` })

export function errorResponse(description: string, headers: Record<string, unknown> = {}) {
  return {
    description,
    headers,
    content: { 'application/json': { schema: { $ref: `${COMPONENT_REF}Error` } } },
  }
}

const SERVER_ERROR_STATUSES = Array.from({ length: 100 }, (_, i) => 500 + i)

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key: `Authorization: Bearer <API_KEY>`. Default sandbox keys: test_starter, test_pro, test_enterprise (`sendbox keys` lists those in force).',
  },
  sandboxAdmin: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Sendbox-Admin-Token',
    description:
      'Only when the server has an admin token (`--admin-token`, or generated off loopback). `Authorization: Bearer <token>` works too.',
  },
  previewToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description:
      "A message-scoped preview token (from the web inbox): opens that one message's HTML without the admin token.",
  },
}

/** The codes of a status the routes of a scope answer with, as the descriptions list them. */
function listOf(status: number, scope: ErrorScope): string {
  return codesOf(status, scope)
    .map((code) => `\`${code}\``)
    .join(', ')
}

/** The error answers routes point at. */
export function errorResponses(
  rateRefs: Record<string, unknown>,
  optionalRateRefs: Record<string, unknown>,
): Record<string, unknown> {
  return {
    BadRequest: errorResponse(
      `Invalid request: ${listOf(400, 'api')}; or a 400 forced by a fault or \`Prefer: code=400\`. Carries the rate-limit headers.`,
      rateRefs,
    ),
    Unauthorized: errorResponse(
      'Missing, malformed or unknown API key (`unauthorized`), with no rate-limit headers and not counted against any limit; or a 401 forced (fault, `Prefer: code=401`) on an authenticated request, which carries them.',
      optionalRateRefs,
    ),
    NotFound: errorResponse(
      'No such resource in this account, or no such endpoint (`not_found`); or a forced 404. Carries the rate-limit headers.',
      rateRefs,
    ),
    RateLimited: errorResponse(
      "The plan's rate limit is exceeded (`rate_limit_exceeded`), or a forced 429: both carry `Retry-After` (what a real 429 would say at that instant) and the rate-limit headers.",
      { 'Retry-After': headerRef('Retry-After'), ...rateRefs },
    ),
    ServerError: errorResponse(
      `Server failure (\`internal_error\`), or a 5xx (${SERVER_ERROR_STATUSES[0]}–${SERVER_ERROR_STATUSES.at(-1)}) forced by a fault or \`Prefer: code\`. Carries the rate-limit headers.`,
      rateRefs,
    ),
    SandboxBadRequest: errorResponse(
      `Invalid control request (${listOf(400, 'controls')}), naming the field in \`param\`.`,
    ),
    SandboxNotFound: errorResponse('No such captured message (`not_found`).'),
    SandboxUnauthorized: errorResponse(
      'The server has an admin token (or team tokens) and the request carries neither the admin token nor a team token (`unauthorized`).',
    ),
    Forbidden: errorResponse(
      'Standalone server only: the `Host` header names a host that is not allowed (`forbidden_host`, against DNS rebinding; see `--allowed-host`), or a sandbox control that changes state was sent by a page of another origin (`forbidden_origin`; see `--cors-origin`). Under `/__sandbox`, also a team token (`--team-token`) asking for what every account shares or acting on an account not its own (`forbidden`).',
    ),
  }
}
