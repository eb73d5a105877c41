import { z } from 'zod'
import { isBodySchema, type Route } from './route.js'
import { DEFAULT_BASE_URL } from '../domain/sandbox.js'
import { CHANNEL_LABELS, channelList } from '../domain/channels/index.js'
import { CHANNELS } from '../contract/constants.js'
import { MAX_BODY_BYTES } from './body.js'
import { MAGIC_RECIPIENTS } from '../domain/magic-recipients.js'
import { ERROR_CODES, ERROR_CODE_NAMES, errorSchema } from '../contract/error.js'
import { VERSION } from '../version.js'
import { COMPONENT_REF, errorResponse, errorResponses, headerRef, SECURITY_SCHEMES } from './openapi-answers.js'

/**
 * The OpenAPI 3.1 document of a route list (the route table, `routes.ts`, passes its own
 * `ROUTES`: this file imports no route, so the table's own `/__sandbox/openapi.json` route can
 * import it without a cycle). It restates no route and no shape. It renders the table's zod schemas with `z.toJSONSchema` and adds what
 * every route of a scope shares (security, error answers, headers).
 */

// ---------------------------------------------------------------------------------------------
// Headers, also as zod schemas so that they are rendered the same way.
// ---------------------------------------------------------------------------------------------

const rateLimitHeaders = {
  'X-RateLimit-Limit': z.int().meta({ description: "Requests per minute of the key's plan." }),
  'X-RateLimit-Remaining': z.int().meta({ description: 'Requests left in the rolling 60-second window.' }),
  'X-RateLimit-Reset': z
    .int()
    .meta({ description: 'Unix seconds at which the oldest counted request leaves the window.' }),
}
const retryAfterHeader = z.int().min(1).meta({
  description:
    'Whole seconds until a request would be admitted. A forced 429 (fault or `Prefer: code=429`) carries the value a real 429 would carry at that instant.',
})
/**
 * One comma- (or semicolon-) separated preference, exactly as the server reads it: `code` takes
 * a status below 300 (ignored) or one it can force (400, 401, 404, 429, 5xx); `delay` takes 0 to
 * 60000; any other preference is ignored.
 */
const PREFER_PART = String.raw`[ \t]*(?:code[ \t]*=[ \t]*0*(?:[0-9]{1,2}|[12][0-9]{2}|40[014]|429|5[0-9]{2})(?:=[^,;]*)?|delay[ \t]*=[ \t]*0*(?:[0-9]{1,4}|[1-5][0-9]{4}|60000)(?:=[^,;]*)?|(?![ \t]*(?:code|delay)[ \t]*(?:=|[,;]|$))[^,;]*)[ \t]*`
const preferHeader = z
  .string()
  .regex(new RegExp(`^${PREFER_PART}(?:[,;]${PREFER_PART})*$`))
  .meta({
    description:
      'Sandbox only (Prism style): `code=500` answers that status with the proper error object (400, 401, 404, 429 or a 5xx; below 300 is ignored) and the headers a real answer of that status carries; `delay=250` delays the answer by that many milliseconds (at most 60000). Other preferences are ignored.',
    examples: ['code=500', 'delay=250', 'code=429, delay=100'],
  })

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

/** Options of {@link openApiDocumentOf}. */
export interface OpenApiOptions {
  /** The API's base URL, as the sandbox is configured; default `https://api.sendbox.test/v1`. */
  baseUrl?: string
}

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
      if (typeof json.format === 'string' && ZOD_ONLY_FORMATS.has(json.format) && json.pattern !== undefined)
        delete json.format
    },
  }) as JsonSchema & { properties: Record<string, JsonSchema>; $defs?: Record<string, JsonSchema> }
  relink(converted)
  for (const [id, schema] of Object.entries(converted.$defs ?? {})) {
    if (id in components && JSON.stringify(components[id]) !== JSON.stringify(schema)) {
      throw new Error(
        `OpenAPI: schema id "${id}" renders differently as a request and as a response; give the two schemas distinct ids.`,
      )
    }
    components[id] = schema
  }
  return schemas.map((_, i) => converted.properties[`s${i}`])
}

/** Every way a request body is declared, as the JSON schema to render (API bodies: their zod object). */
function bodySchemaOf(route: Route): z.ZodType | undefined {
  if (!route.body) return undefined
  return isBodySchema(route.body) ? route.body.schema : route.body
}

/**
 * Builds the OpenAPI 3.1 document of the API and the sandbox controls from a route list (the
 * table's `ROUTES`, through `buildOpenApiDocument` in routes.ts) and the zod schemas the handlers validate with. Nothing is restated: a route or a
 * schema change shows here on the next build. The API's paths are relative to `baseUrl` (the
 * top-level server); the controls carry their own server, the base URL's origin, and the
 * `sandbox` tag.
 *
 * @example
 * const doc = openApiDocumentOf(ROUTES, { baseUrl: 'http://127.0.0.1:4010/v1' })
 * doc.paths['/email/send'].post // the send-email operation
 */
export function openApiDocumentOf(routes: readonly Route[], options: OpenApiOptions = {}): OpenApiDocument {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  const origin = baseUrl.startsWith('/') ? undefined : new URL(baseUrl).origin
  const schemas: Record<string, JsonSchema> = {}
  const refs = schemaRefs(routes, schemas)
  const { headers, rateRefs, optionalRateRefs } = headerComponents(refs)
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const item = (paths[route.path] ??=
      route.scope === 'sandbox' && origin
        ? {
            servers: [
              {
                url: origin,
                description:
                  'Sandbox controls (not part of the real API); also answered under the base URL (`<baseUrl>/__sandbox/...`)',
              },
            ],
          }
        : {})
    item[route.method.toLowerCase()] = operationOf(route, refs, rateRefs)
  }
  return {
    ...documentHead(baseUrl),
    paths,
    components: {
      schemas,
      securitySchemes: SECURITY_SCHEMES,
      parameters: {
        Prefer: { name: 'Prefer', in: 'header', required: false, ...describe(refs.prefer) },
        // The contract ignores unknown query parameters; a free-form object parameter is how OpenAPI says so.
        OtherQuery: {
          name: 'other',
          in: 'query',
          required: false,
          style: 'form',
          explode: true,
          description:
            'Any query parameter not listed is ignored (a free-form object: each is a name and a string value).',
          schema: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      headers,
      responses: errorResponses(rateRefs, optionalRateRefs),
    },
  }
}

/** What the document says before its paths: title, version, servers, the sandbox's extensions, security and tags. */
function documentHead(baseUrl: string): Record<string, unknown> & { openapi: string } {
  const codes = ERROR_CODE_NAMES.map((c) => `\`${c}\``).join(', ')
  return {
    openapi: '3.1.0',
    info: {
      title: 'sendbox',
      version: VERSION,
      summary: 'A local sandbox of the messaging and subscriber API. Nothing is ever delivered.',
      description: `The real service's API under the base URL (${channelList()} sends, subscribers), plus sandbox-only controls under \`/__sandbox\` (tag \`sandbox\`), which the real service does not have. Every API answer carries \`X-RateLimit-*\` headers; every error is \`{ "error": { "code", "message" } }\` with one of ${codes} (or the \`code\` a fault was given). Paths match exactly: case and a trailing slash count.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl, description: 'The messaging API' }],
    // Request bodies over this many bytes are refused (400 `payload_too_large`), never buffered.
    'x-sendbox-max-body-bytes': MAX_BODY_BYTES,
    // Recipients whose sends are answered or delivered as the table says (like card test numbers).
    'x-sendbox-magic-recipients': MAGIC_RECIPIENTS.map(({ recipient, channel, outcome, description }) => ({
      recipient,
      channel,
      outcome: outcome.kind,
      ...('code' in outcome ? { status: ERROR_CODES[outcome.code].status, code: outcome.code } : {}),
      ...('reason' in outcome ? { reason: outcome.reason } : {}),
      description,
    })),
    security: [{ bearerAuth: [] }],
    tags: [
      ...CHANNELS.map((channel) => ({ name: channel, description: `${CHANNEL_LABELS[channel]} sends.` })),
      { name: 'subscribers', description: "Subscribers (contact records) of the key's account." },
      {
        name: 'sandbox',
        description:
          'Sandbox-only controls: outbox, waiting, events, clock, request journal, faults, reset, health. Not part of the real API.',
      },
    ],
    'x-tagGroups': [
      { name: 'API', tags: [...CHANNELS, 'subscribers'] },
      { name: 'Sandbox controls', tags: ['sandbox'] },
    ],
  }
}

/** The schemas every route names, converted once into `schemas` (responses first, then requests), taken in route order. */
interface SchemaRefs {
  responses: JsonSchema[]
  bodies: JsonSchema[]
  queries: JsonSchema[]
  retryAfter: JsonSchema
  prefer: JsonSchema
  limitHeaders: JsonSchema[]
}

function schemaRefs(routes: readonly Route[], schemas: Record<string, JsonSchema>): SchemaRefs {
  // Responses (output) first, then requests (input): the same schema rendered both ways must agree.
  const responseOf = (route: Route): z.ZodType | undefined =>
    route.response instanceof z.ZodType
      ? route.response
      : 'eventStream' in route.response
        ? route.response.eventStream
        : undefined
  const [, ...responses] = convert([errorSchema, ...routes.flatMap((r) => responseOf(r) ?? [])], 'output', schemas)
  const bodies = convert(
    routes.flatMap((r) => bodySchemaOf(r) ?? []),
    'input',
    schemas,
  )
  const queryKeys = routes.flatMap((r) => Object.keys(r.query ?? {}).map((name) => [r, name] as const))
  const queries = convert(
    queryKeys.map(([r, name]) => r.query![name]),
    'input',
    schemas,
  )
  const [retryAfter, prefer, ...limitHeaders] = convert(
    [retryAfterHeader, preferHeader, ...Object.values(rateLimitHeaders)],
    'output',
    schemas,
  )
  return { responses, bodies, queries, retryAfter, prefer, limitHeaders }
}

/** A schema's description lifted out beside it (how OpenAPI parameters and headers carry one). */
function describe(schema: JsonSchema): { description: string | undefined; schema: JsonSchema } {
  const { description, ...rest } = schema
  return { description: description as string | undefined, schema: rest }
}

/** `Retry-After` and the rate-limit headers (required, and optional for a 401 that may lack them), and references to them. */
function headerComponents(refs: SchemaRefs) {
  const headers: Record<string, unknown> = { 'Retry-After': { ...describe(refs.retryAfter), required: true } }
  Object.keys(rateLimitHeaders).forEach((name, i) => {
    headers[name] = { ...describe(refs.limitHeaders[i]), required: true }
    // A real 401 has none (no key, no window); a 401 forced on an authenticated request has them.
    headers[`${name}-Optional`] = { ...describe(refs.limitHeaders[i]), required: false }
  })
  const rateRefs = Object.fromEntries(Object.keys(rateLimitHeaders).map((name) => [name, headerRef(name)]))
  const optionalRateRefs = Object.fromEntries(
    Object.keys(rateLimitHeaders).map((name) => [name, headerRef(`${name}-Optional`)]),
  )
  return { headers, rateRefs, optionalRateRefs }
}

/** A route's parameters: its path's, its query's (in order), `Prefer` on the API, and the ignored others. */
function parametersOf(route: Route, refs: SchemaRefs): unknown[] {
  const parameters: unknown[] = []
  for (const name of route.path.match(/\{([^}]+)\}/g) ?? []) {
    parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema: { type: 'string', minLength: 1 } })
  }
  for (const name of Object.keys(route.query ?? {})) {
    const { description, schema } = describe(refs.queries.shift()!)
    parameters.push({ name, in: 'query', required: false, ...(description ? { description } : {}), schema })
  }
  if (route.scope === 'api') parameters.push({ $ref: '#/components/parameters/Prefer' })
  parameters.push({ $ref: '#/components/parameters/OtherQuery' })
  return parameters
}

/** The route's success answer, by what it declares: JSON, no body, an event stream, text or HTML. */
function successOf(route: Route, refs: SchemaRefs, rateRefs: Record<string, unknown>): Record<string, unknown> {
  const limits = route.scope === 'api' ? { headers: rateRefs } : {}
  if (route.response instanceof z.ZodType)
    return {
      description: route.summary,
      ...limits,
      content: { 'application/json': { schema: refs.responses.shift()! } },
    }
  if ('empty' in route.response) return { description: `${route.summary}: no body.`, ...limits }
  if ('eventStream' in route.response) {
    return {
      description: `${route.summary}. Each event is \`event: <type>\` and \`data: <JSON>\` (the schema below); a \`: ping\` comment every 15 s.`,
      content: { 'text/event-stream': { schema: { type: 'string' }, 'x-itemSchema': refs.responses.shift()! } },
    }
  }
  if ('png' in route.response)
    return {
      description: `${route.summary}: a PNG image.`,
      content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
    }
  if ('text' in route.response)
    return { description: route.summary, content: { [route.response.text]: { schema: { type: 'string' } } } }
  return { description: 'The HTML body.', content: { 'text/html': { schema: { type: 'string' } } } }
}

/** Every answer a route may give: its success, and the errors faults, the guard and the transport can answer. */
function responsesOf(route: Route, success: Record<string, unknown>): Record<string, unknown> {
  const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })
  const responses: Record<string, unknown> = { [route.status ?? 200]: success }
  if (route.scope === 'api') {
    // Faults and `Prefer: code` can force any of these on any route.
    Object.assign(responses, {
      400: responseRef('BadRequest'),
      401: responseRef('Unauthorized'),
      404: responseRef('NotFound'),
      429: responseRef('RateLimited'),
      '5XX': responseRef('ServerError'),
    })
  } else {
    if (route.body || route.query) responses['400'] = responseRef('SandboxBadRequest')
    if (!route.public) responses['401'] = responseRef('SandboxUnauthorized')
    if (route.path.includes('{')) responses['404'] = responseRef('SandboxNotFound')
  }
  // The standalone server answers any request whose Host is not allowed, and a control's state change from a page of another origin, with 403.
  responses['403'] = responseRef('Forbidden')
  for (const extra of route.answers ?? [])
    responses[String(ERROR_CODES[extra.code].status)] = errorResponse(extra.description)
  return responses
}

/** One route's operation. Consumes its schemas from `refs` (routes are walked in table order). */
function operationOf(route: Route, refs: SchemaRefs, rateRefs: Record<string, unknown>): Record<string, unknown> {
  const parameters = parametersOf(route, refs)
  const responses = responsesOf(route, successOf(route, refs, rateRefs))
  const body = bodySchemaOf(route)
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            description: `A JSON object, \`Content-Type: application/json\`, at most ${MAX_BODY_BYTES} bytes (1 MiB; larger: 400 \`payload_too_large\`).`,
            content: { 'application/json': { schema: refs.bodies.shift()! } },
          },
        }
      : {}),
    responses,
    // The controls are open unless the server was given an admin token; a preview token opens one message's HTML.
    ...(route.scope === 'sandbox'
      ? {
          security: route.public
            ? [{}]
            : route.previewToken
              ? [{}, { sandboxAdmin: [] }, { previewToken: [] }]
              : [{}, { sandboxAdmin: [] }],
        }
      : {}),
  }
}
