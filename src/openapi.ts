import { z } from 'zod'
import { faultSpecSchema, type Fault } from './domain/faults.js'
import { CHANNELS, MESSAGE_STATUSES } from './domain/outbox.js'
import { capturedMessageSchema, capturedMessageSummarySchema } from './schemas/captured-message.js'
import { journalEntrySchema } from './schemas/journal.js'
import { DEFAULT_BASE_URL, RESET_SCOPES } from './domain/sandbox.js'
import { errorSchema } from './schemas/error.js'
import { emailSendRequest, sendResult, smsSendRequest, whatsappSendRequest } from './schemas/messages.js'
import { paginated } from './schemas/pagination.js'
import { subscriberCreateRequest, subscriberSchema, subscriberUpdateRequest } from './schemas/subscriber.js'
import { VERSION } from './version.js'

// ---------------------------------------------------------------------------------------------
// Shapes the sandbox controls answer with. The domain declares them as TypeScript interfaces;
// the zod schemas below are checked against those interfaces both ways at compile time
// (`Same<>`), so the document cannot drift from what the controls really send.
// ---------------------------------------------------------------------------------------------

/** A fault in force, as `POST /__sandbox/faults` and `GET /__sandbox/faults` answer it. */
export const faultSchema = z
  .object({
    id: z.string().meta({ example: 'flt_1' }),
    status: z.int(),
    code: z.string().nullable(),
    path: z.string().nullable(),
    method: z.string().nullable(),
    remaining: z.int().nullable().meta({ description: 'Answers left before it expires; null = until cleared.' }),
    probability: z.number(),
    delay_ms: z.int(),
    hits: z.int(),
  })
  .meta({ id: 'Fault' })

/** `GET /__sandbox/health`. */
export const healthSchema = z
  .object({
    ok: z.literal(true),
    version: z.string(),
    messages: z.int(),
    messages_evicted: z.int(),
    max_messages: z.int(),
    requests: z.int(),
    faults: z.int(),
  })
  .meta({ id: 'Health' })

const okSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' })
const resetResultSchema = z
  .object({ ok: z.literal(true), scope: z.enum(['all', ...RESET_SCOPES]) })
  .meta({ id: 'ResetResult' })
const faultListSchema = z.object({ data: z.array(faultSchema) }).meta({ id: 'FaultList' })
const subscriberListSchema = paginated(subscriberSchema, 'SubscriberList')
const messagePageSchema = paginated(capturedMessageSummarySchema, 'CapturedMessagePage')
const journalPageSchema = paginated(journalEntrySchema, 'JournalPage')

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
// Compile-time guards: a field added to a domain interface and not here (or the reverse) fails tsc.
const shapesMatchDomain: [Same<z.infer<typeof faultSchema>, Fault>] = [true]
void shapesMatchDomain

// ---------------------------------------------------------------------------------------------
// Parameters and headers, also as zod schemas so that they are rendered the same way.
// ---------------------------------------------------------------------------------------------

const pageParam = z.int().min(1).default(1).meta({ description: 'Page number, from 1. Decimal digits only.' })
const limitParam = z.int().min(1).max(100).default(20).meta({ description: 'Page size, 1 to 100. Never clamped: out of range is 400.' })
const accountParam = z.string().meta({ description: 'Only this account (an API key\'s account; by default the key itself).' })

const pageQuery = { page: pageParam, limit: limitParam }

const rateLimitHeaders = {
  'X-RateLimit-Limit': z.int().meta({ description: 'Requests per minute of the key\'s plan.' }),
  'X-RateLimit-Remaining': z.int().meta({ description: 'Requests left in the rolling 60-second window.' }),
  'X-RateLimit-Reset': z.int().meta({ description: 'Unix seconds at which the oldest counted request leaves the window.' }),
}
const retryAfterHeader = z.int().min(1).meta({ description: 'Whole seconds until a request would be admitted.' })
const preferHeader = z
  .string()
  .meta({
    description: 'Sandbox only (Prism style): `code=500` answers that status with the proper error object; `delay=250` delays the answer by that many milliseconds.',
    examples: ['code=500', 'delay=250', 'code=429, delay=100'],
  })

// ---------------------------------------------------------------------------------------------
// The routes. A test compares this table with the MSW handlers, both ways.
// ---------------------------------------------------------------------------------------------

/** Where a route lives: under the API base URL, or under `<origin>/__sandbox`. */
export type RouteScope = 'api' | 'sandbox'

/** One operation of the document. */
export interface OpenApiRoute {
  scope: RouteScope
  method: 'get' | 'post' | 'put' | 'delete'
  /** OpenAPI path template: relative to the base URL for `api`, to the origin for `sandbox`. */
  path: string
  operationId: string
  tag: string
  summary: string
  description?: string
  query?: Record<string, z.ZodType>
  body?: z.ZodType
  /** JSON schema of the 200 answer, or `html` for the one control that answers HTML. */
  response: z.ZodType | 'html'
}

const api = (route: Omit<OpenApiRoute, 'scope'>): OpenApiRoute => ({ scope: 'api', ...route })
const control = (route: Omit<OpenApiRoute, 'scope' | 'tag'>): OpenApiRoute => ({ scope: 'sandbox', tag: 'sandbox', ...route })

/**
 * Every route sendbox serves, in document order. Exported so that tests (and tools) can walk
 * the same table the document is built from.
 */
export const OPENAPI_ROUTES: readonly OpenApiRoute[] = [
  api({ method: 'post', path: '/email/send', operationId: 'sendEmail', tag: 'email', summary: 'Send an email', body: emailSendRequest.schema, response: sendResult }),
  api({ method: 'post', path: '/sms/send', operationId: 'sendSms', tag: 'sms', summary: 'Send an SMS', body: smsSendRequest.schema, response: sendResult }),
  api({ method: 'post', path: '/whatsapp/send', operationId: 'sendWhatsapp', tag: 'whatsapp', summary: 'Send a WhatsApp template message', body: whatsappSendRequest.schema, response: sendResult }),
  api({
    method: 'post', path: '/subscribers', operationId: 'createSubscriber', tag: 'subscribers', summary: 'Create a subscriber',
    description: 'At least one of `email` and `phone` is required (400 `missing_parameter`). Emails are unique per account, case-insensitively (400 `duplicate_email`). Tags are stored de-duplicated, in order.',
    body: subscriberCreateRequest.schema, response: subscriberSchema,
  }),
  api({ method: 'get', path: '/subscribers', operationId: 'listSubscribers', tag: 'subscribers', summary: 'List subscribers, oldest first', query: pageQuery, response: subscriberListSchema }),
  api({ method: 'get', path: '/subscribers/{id}', operationId: 'getSubscriber', tag: 'subscribers', summary: 'Fetch a subscriber', description: 'Another account\'s subscriber answers 404 like an unknown id.', response: subscriberSchema }),
  api({
    method: 'put', path: '/subscribers/{id}', operationId: 'updateSubscriber', tag: 'subscribers', summary: 'Update a subscriber',
    description: 'A partial update: send at least one field. `tags` replaces the list; `null` clears a field as long as the subscriber keeps an email or a phone.',
    body: subscriberUpdateRequest.schema, response: subscriberSchema,
  }),
  control({ method: 'get', path: '/__sandbox/health', operationId: 'sandboxHealth', summary: 'Health and sizes of the outbox, journal and faults', response: healthSchema }),
  control({ method: 'get', path: '/__sandbox/openapi.json', operationId: 'sandboxOpenApi', summary: 'This document', response: z.record(z.string(), z.unknown()) }),
  control({
    method: 'get', path: '/__sandbox/messages', operationId: 'listCapturedMessages', summary: 'Captured messages, newest first', description: 'Every account unless `account` is given.',
    query: {
      channel: z.enum(CHANNELS),
      to: z.string().meta({ description: 'Exact recipient.' }),
      status: z.enum(MESSAGE_STATUSES),
      since: z.string().meta({ description: 'ISO 8601 time or Unix milliseconds: only messages created at or after it.' }),
      account: accountParam,
      ...pageQuery,
    },
    response: messagePageSchema,
  }),
  control({ method: 'delete', path: '/__sandbox/messages', operationId: 'clearCapturedMessages', summary: 'Clear the outbox', response: okSchema }),
  control({ method: 'get', path: '/__sandbox/messages/{id}', operationId: 'getCapturedMessage', summary: 'One captured message with its status history', response: capturedMessageSchema }),
  control({
    method: 'get', path: '/__sandbox/messages/{id}/html', operationId: 'getCapturedMessageHtml', summary: 'The HTML body of a captured email',
    description: 'Served with a `Content-Security-Policy: sandbox` header so that its scripts never run on the sandbox\'s origin.',
    response: 'html',
  }),
  control({ method: 'get', path: '/__sandbox/requests', operationId: 'listRequests', summary: 'The request journal, newest first', query: { account: accountParam, ...pageQuery }, response: journalPageSchema }),
  control({
    method: 'post', path: '/__sandbox/reset', operationId: 'resetSandbox', summary: 'Back to the seeded state',
    description: 'Subscribers, outbox, journal, rate-limit windows and faults; or only the part named by `scope`.',
    query: { scope: z.enum(RESET_SCOPES) }, response: resetResultSchema,
  }),
  control({ method: 'get', path: '/__sandbox/faults', operationId: 'listFaults', summary: 'Faults in force', response: faultListSchema }),
  control({
    method: 'post', path: '/__sandbox/faults', operationId: 'addFault', summary: 'Inject a failure',
    description: '`path` is the request path as the server sees it, base path included (`/v1/sms/send`), matched exactly. `times` defaults to unlimited, `probability` to 1.',
    body: faultSpecSchema, response: faultSchema,
  }),
  control({ method: 'delete', path: '/__sandbox/faults', operationId: 'clearFaults', summary: 'Clear every fault', response: okSchema }),
]

// ---------------------------------------------------------------------------------------------
// Conversion
// ---------------------------------------------------------------------------------------------

type JsonSchema = Record<string, unknown>

/** The OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string
  paths: Record<string, Record<string, unknown>>
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>
}

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** The API's base URL, as the sandbox is configured; default `https://api.sendbox.test/v1`. */
  baseUrl?: string
}

const COMPONENT_REF = '#/components/schemas/'
const ZOD_ONLY_FORMATS = new Set(['starts_with', 'ends_with', 'includes'])

/** Rewrites zod's `#/$defs/X` references into component references, in place. */
function relink(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) relink(item)
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>
    if (typeof record.$ref === 'string' && record.$ref.startsWith('#/$defs/')) {
      record.$ref = COMPONENT_REF + record.$ref.slice('#/$defs/'.length)
    }
    for (const value of Object.values(record)) relink(value)
  }
}

/**
 * Converts many zod schemas at once with `z.toJSONSchema`. Schemas with a `.meta({ id })` come
 * back as `$ref`s and land in `components`; others are inlined. Request bodies (`io: 'input'`)
 * get `additionalProperties: false` on every object, because the API answers an unknown field
 * (top level or nested) with 400 `unknown_parameter`.
 */
function convert(schemas: z.ZodType[], io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema[] {
  const wrapper = z.object(Object.fromEntries(schemas.map((schema, i) => [`s${i}`, schema])))
  const converted = z.toJSONSchema(wrapper, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      const json = ctx.jsonSchema
      if (io === 'input' && ctx.zodSchema._zod.def.type === 'object' && json.additionalProperties === undefined) {
        json.additionalProperties = false
      }
      // zod writes the safe-integer range on every int and names its own string checks as
      // formats (`starts_with`); neither tells a reader anything the type and pattern do not.
      if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum
      if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum
      if (typeof json.format === 'string' && ZOD_ONLY_FORMATS.has(json.format) && json.pattern !== undefined) delete json.format
    },
  }) as JsonSchema & { properties: Record<string, JsonSchema>; $defs?: Record<string, JsonSchema> }
  relink(converted)
  for (const [id, schema] of Object.entries(converted.$defs ?? {})) {
    if (id in components && JSON.stringify(components[id]) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI: schema id "${id}" renders differently as a request and as a response; give the two schemas distinct ids.`)
    }
    components[id] = schema
  }
  return schemas.map((_, i) => converted.properties[`s${i}`])
}

function errorResponse(description: string, headers: Record<string, unknown> = {}) {
  return {
    description,
    headers,
    content: { 'application/json': { schema: { $ref: `${COMPONENT_REF}Error` } } },
  }
}

/**
 * Builds the OpenAPI 3.1 document of the API and the sandbox controls from the zod schemas the
 * handlers validate with. Nothing is restated: a schema change shows here on the next build.
 * The API's paths are relative to `baseUrl` (the top-level server); the controls carry their
 * own server, the base URL's origin, and the `sandbox` tag.
 *
 * @example
 * const doc = buildOpenApiDocument({ baseUrl: 'http://127.0.0.1:4010/v1' })
 * doc.paths['/email/send'].post // the send-email operation
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  const origin = new URL(baseUrl).origin
  const schemas: Record<string, JsonSchema> = {}

  // Responses (output) first, then requests (input): the same schema rendered both ways must agree.
  const responseSchemas = OPENAPI_ROUTES.flatMap((r) => (r.response === 'html' ? [] : [r.response]))
  const [errorRef, ...responseRefs] = convert([errorSchema, ...responseSchemas], 'output', schemas)
  void errorRef
  const bodies = OPENAPI_ROUTES.flatMap((r) => (r.body ? [r.body] : []))
  const bodyRefs = convert(bodies, 'input', schemas)
  const queryKeys = OPENAPI_ROUTES.flatMap((r) => Object.keys(r.query ?? {}).map((name) => [r, name] as const))
  const queryRefs = convert(queryKeys.map(([r, name]) => r.query![name]), 'input', schemas)
  const [retryAfter, prefer, ...limitHeaders] = convert([retryAfterHeader, preferHeader, ...Object.values(rateLimitHeaders)], 'output', schemas)

  const describe = (schema: JsonSchema) => {
    const { description, ...rest } = schema
    return { description: description as string | undefined, schema: rest }
  }
  const headers: Record<string, unknown> = { 'Retry-After': { ...describe(retryAfter), required: true } }
  Object.keys(rateLimitHeaders).forEach((name, i) => {
    headers[name] = { ...describe(limitHeaders[i]), required: true }
  })
  const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` })
  const rateRefs = Object.fromEntries(Object.keys(rateLimitHeaders).map((name) => [name, headerRef(name)]))

  const paths: Record<string, Record<string, unknown>> = {}
  let responseIndex = 0
  let bodyIndex = 0
  let queryIndex = 0
  for (const route of OPENAPI_ROUTES) {
    const parameters: unknown[] = []
    for (const name of route.path.match(/\{([^}]+)\}/g) ?? []) {
      parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } })
    }
    for (const name of Object.keys(route.query ?? {})) {
      const { description, schema } = describe(queryRefs[queryIndex++])
      parameters.push({ name, in: 'query', required: false, ...(description ? { description } : {}), schema })
    }
    if (route.scope === 'api') parameters.push({ $ref: '#/components/parameters/Prefer' })

    const success = route.response === 'html'
      ? { description: 'The HTML body.', content: { 'text/html': { schema: { type: 'string' } } } }
      : {
          description: route.summary,
          ...(route.scope === 'api' ? { headers: rateRefs } : {}),
          content: { 'application/json': { schema: responseRefs[responseIndex++] } },
        }
    const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })
    const responses: Record<string, unknown> = { 200: success }
    if (route.scope === 'api') {
      // Faults and `Prefer: code` can force any of these on any route.
      Object.assign(responses, { 400: responseRef('BadRequest'), 401: responseRef('Unauthorized'), 404: responseRef('NotFound'), 429: responseRef('RateLimited'), '5XX': responseRef('ServerError') })
    } else {
      if (route.body || route.query) responses['400'] = responseRef('SandboxBadRequest')
      responses['401'] = responseRef('SandboxUnauthorized')
      if (route.path.includes('{')) responses['404'] = responseRef('SandboxNotFound')
    }

    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: bodyRefs[bodyIndex++] } } } }
        : {}),
      responses,
      // The controls are open unless the server was given an admin token.
      ...(route.scope === 'sandbox' ? { security: [{}, { sandboxAdmin: [] }] } : {}),
    }
    const item = (paths[route.path] ??= route.scope === 'sandbox' ? { servers: [{ url: origin, description: 'Sandbox controls (not part of the real API)' }] } : {})
    item[route.method] = operation
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'sendbox',
      version: VERSION,
      summary: 'A local sandbox of the messaging and subscriber API. Nothing is ever delivered.',
      description:
        'The real service\'s API under the base URL (email, SMS and WhatsApp sends, subscribers), plus sandbox-only controls under `/__sandbox` (tag `sandbox`), which the real service does not have. Every API answer carries `X-RateLimit-*` headers; every error is `{ "error": { "code", "message" } }`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl, description: 'The messaging API' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'email', description: 'Email sends.' },
      { name: 'sms', description: 'SMS sends.' },
      { name: 'whatsapp', description: 'WhatsApp template sends.' },
      { name: 'subscribers', description: 'Subscribers (contact records) of the key\'s account.' },
      { name: 'sandbox', description: 'Sandbox-only controls: outbox, request journal, faults, reset, health. Not part of the real API.' },
    ],
    'x-tagGroups': [
      { name: 'API', tags: ['email', 'sms', 'whatsapp', 'subscribers'] },
      { name: 'Sandbox controls', tags: ['sandbox'] },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `Authorization: Bearer <API_KEY>`. Default sandbox keys: test_starter, test_pro, test_enterprise (`sendbox keys` lists those in force).',
        },
        sandboxAdmin: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Sendbox-Admin-Token',
          description: 'Only when the server has an admin token (`--admin-token`, or generated off loopback). `Authorization: Bearer <token>` works too.',
        },
      },
      parameters: {
        Prefer: { name: 'Prefer', in: 'header', required: false, ...describe(prefer) },
      },
      headers,
      responses: {
        BadRequest: errorResponse('Invalid request: `invalid_parameter`, `missing_parameter`, `unknown_parameter`, `invalid_email`, `invalid_phone`, `invalid_json`, `invalid_content_type`, `payload_too_large`, `duplicate_email`.', rateRefs),
        Unauthorized: errorResponse('Missing, malformed or unknown API key (`unauthorized`). Not counted against any rate limit.'),
        NotFound: errorResponse('No such resource in this account, or no such endpoint (`not_found`).', rateRefs),
        RateLimited: errorResponse('The plan\'s rate limit is exceeded (`rate_limit_exceeded`).', { 'Retry-After': headerRef('Retry-After'), ...rateRefs }),
        ServerError: errorResponse('Server failure (`internal_error`), or a 5xx forced by a fault or `Prefer: code`.', rateRefs),
        SandboxBadRequest: errorResponse('Invalid control request (`invalid_parameter`, `missing_parameter`, `unknown_parameter`, `invalid_json`).'),
        SandboxNotFound: errorResponse('No such captured message (`not_found`).'),
        SandboxUnauthorized: errorResponse('The server has an admin token and the request does not carry it (`unauthorized`).'),
      },
    },
  }
}
