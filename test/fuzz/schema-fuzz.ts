/**
 * Fuzzing read off the route table: every route that takes input (a body, a query or a path
 * parameter) and answers JSON or nothing is fuzzed from its own request schemas, with no
 * hand-written case, so a new route is fuzzed the day it lands. The oracle is the route's OpenAPI
 * operation (also derived from the table): a status it documents, an error code of that status
 * (`ERROR_CODES`), and a success body its response schema accepts. The hand-written endpoints
 * (`test/fuzz/endpoints.ts`) keep their sharper oracles; a route they fuzz is not fuzzed again here.
 */
import fc from 'fast-check'
import { z } from 'zod'
import { ERROR_CODES, ERROR_CODE_NAMES } from '../../src/contract/error.js'
import { buildOpenApiDocument } from '../../src/http/openapi-document.js'
import { isBodySchema, type Route } from '../../src/http/route.js'
import type { EndpointFuzz, ExactExpectation, FuzzCase, FuzzContext, Wire } from './fuzz-kit.js'
import { validEmail, validLengthString, weirdString, wellFormed } from './values.js'

/**
 * Routes that take input but are fuzzed neither by hand nor from their schemas, each with the
 * reason. A route answering anything but JSON or nothing (HTML, a PNG, a stream, text) cannot be
 * judged generically and must be listed here (or get a hand-written endpoint).
 */
export const NOT_FUZZED: Record<string, string> = {
  'GET /__sandbox/messages/{id}/html':
    'an id and a flag; its HTML and CSP are attacked in test/browser/preview-policy.test.ts',
  'GET /__sandbox/messages/{id}/checks':
    "`links=live` requests every link of the message (network); hostile HTML and bodies are the checks suites' (test/checks)",
  'GET /__sandbox/messages/{id}/screenshot.png':
    'an id, a bounded width, an enum and a flag, each refused in test/screenshots/screenshot.test.ts; a fuzz case that passed them would cost a Chromium render',
  'GET /__sandbox/messages/wait':
    'the outbox filters of GET /__sandbox/messages (fuzzed) plus a timeout: a valid case waits up to a minute (test/api/sandbox-live.test.ts)',
  'GET /__sandbox/events': 'one enum filter; the stream is attacked in test/abuse/fan-out.test.ts',
  'POST /__sandbox/mcp': 'JSON-RPC, parsed by the MCP SDK; test/mcp covers malformed messages',
  'GET /__sandbox/readyz': 'one duration: a valid case waits up to 999999 s (test/api/operations.test.ts)',
}

/** `METHOD /v1/path` or `METHOD /__sandbox/path`: how the fuzz suite names a route. */
export function fuzzName(route: Route): string {
  return `${route.method} ${route.scope === 'api' ? `/v1${route.path}` : route.path}`
}

/** Whether a route takes input a fuzzer can vary. */
export function takesInput(route: Route): boolean {
  return route.body !== undefined || route.query !== undefined || route.path.includes('{')
}

/** Whether the generic oracle can judge a route's answers: JSON or no body. */
export function judgedGenerically(route: Route): boolean {
  return route.response instanceof z.ZodType || 'empty' in route.response
}

type JsonSchema = {
  $ref?: string
  $defs?: Record<string, JsonSchema>
  type?: string | string[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  example?: unknown
}

/** Strings matching a pattern (fast-check's regex generator), or any string when it cannot read the pattern. */
function patterned(schema: JsonSchema): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(schema.pattern!), { size: 'small' })
  } catch {
    return validLengthString(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 40))
  }
}

/** Values a JSON Schema (zod's rendering of a request schema) accepts, as far as cheap to generate. */
export function valid(schema: JsonSchema, defs: Record<string, JsonSchema> = {}, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return valid(defs[schema.$ref.split('/').at(-1)!] ?? {}, defs, depth)
  const options = schema.anyOf ?? schema.oneOf
  if (options) return fc.oneof(...options.map((option) => valid(option, defs, depth)))
  if (schema.const !== undefined) return fc.constant(schema.const)
  // A documented example is a valid value the random ones may never hit (a phone number).
  if (schema.example !== undefined)
    return fc.oneof(fc.constant(schema.example), valid({ ...schema, example: undefined }, defs, depth))
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  if (types.length > 1) return fc.oneof(...types.map((type) => valid({ ...schema, type }, defs, depth)))
  switch (types[0]) {
    case 'string':
      if (schema.format === 'email') return validEmail
      if (schema.pattern) return patterned(schema)
      return validLengthString(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 40))
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? -1e6, -1e9)
      const max = Math.min(schema.maximum ?? 1e6, 1e9)
      const small = fc.integer({ min, max: Math.min(max, min + 100) })
      return types[0] === 'integer'
        ? fc.oneof(small, fc.integer({ min, max }))
        : fc.oneof(small, fc.double({ min, max, noNaN: true }))
    }
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(valid(schema.items ?? {}, defs, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      })
    case 'object':
      return objectOf(schema, defs, depth)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function objectOf(schema: JsonSchema, defs: Record<string, JsonSchema>, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant({})
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      required.has(name)
        ? valid(property, defs, depth + 1)
        : fc.option(valid(property, defs, depth + 1), { nil: undefined, freq: 2 }),
    ]),
  )
  const extra =
    typeof schema.additionalProperties === 'object'
      ? fc.dictionary(fc.string({ maxLength: 8 }), valid(schema.additionalProperties, defs, depth + 1), { maxKeys: 3 })
      : fc.constant({})
  return fc.tuple(fc.record(fields), extra).map(([known, more]) => {
    const value: Record<string, unknown> = { ...more }
    for (const [name, field] of Object.entries(known)) if (field !== undefined) value[name] = field
    return value
  })
}

/** A request body: mostly valid, else one field of any JSON type, an unknown field, other JSON, or not JSON. */
function bodyText(schema: JsonSchema): fc.Arbitrary<string | undefined> {
  const defs = schema.$defs ?? {}
  const object = valid(schema, defs)
  const mutated = fc
    .tuple(object, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
    .map(([value, key, any]) => {
      const keys = value !== null && typeof value === 'object' ? Object.keys(value) : []
      const name = keys.length > 0 && key.length % 2 === 0 ? keys[key.length % keys.length] : key
      return JSON.stringify({ ...(value as object), [name]: any })
    })
  return fc.oneof(
    { weight: 6, arbitrary: object.map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: mutated },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.oneof(weirdString, fc.constant(undefined)) },
  )
}

/** A query string over the declared parameters: each absent, valid, or any text. */
function queryText(route: Route): fc.Arbitrary<string> {
  const parameters = Object.entries(route.query ?? {}).map(([name, schema]) => {
    const rendered = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema
    const value = fc.oneof({ weight: 3, arbitrary: valid(rendered).map(String) }, { weight: 1, arbitrary: weirdString })
    return fc.option(
      value.map((v) => `${name}=${encodeURIComponent(wellFormed(v))}`),
      { nil: undefined, freq: 2 },
    )
  })
  return fc.tuple(...parameters).map((parts) => {
    const present = parts.filter((part) => part !== undefined)
    return present.length > 0 ? `?${present.join('&')}` : ''
  })
}

/**
 * Path parameters: mostly an id that exists (of the collection the path names, `subscribers` or
 * `messages`, when the seed made some), else one that does not, or any text.
 */
function pathText(route: Route, context: FuzzContext): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/\{[^}]+\}/g)].map((match) => match[0])
  const idOf = (before: string) => {
    const known = before.endsWith('/subscribers/')
      ? context.subscriberIds
      : before.endsWith('/messages/')
        ? context.messageIds
        : [...context.subscriberIds, ...context.messageIds]
    return fc.oneof(
      { weight: 6, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant('sub_missing') },
      { weight: 1, arbitrary: fc.constantFrom('sub_missing', 'msg_missing', 'x') },
      { weight: 1, arbitrary: weirdString.filter((s) => s.length > 0).map((s) => encodeURIComponent(wellFormed(s))) },
    )
  }
  const segments = route.path.split(/\{[^}]+\}/)
  return fc.tuple(...names.map((_, i) => idOf(segments.slice(0, i + 1).join('{}')))).map((ids) => {
    const path = segments.map((segment, i) => segment + (ids[i] ?? '')).join('')
    return route.scope === 'api' ? `/v1${path}` : path
  })
}

/** What the route's operation documents: each status it may answer (no 5xx: nothing here asks for one), with the codes of that status. */
function oracleOf(route: Route): ExactExpectation[] {
  const operation = Object.values(buildOpenApiDocument().paths)
    .flatMap((item) => Object.values(item) as Array<{ operationId?: string; responses?: Record<string, unknown> }>)
    .find((op) => op?.operationId === route.operationId)
  if (!operation?.responses)
    throw new Error(`${fuzzName(route)}: no operation ${route.operationId} in the OpenAPI document`)
  return Object.keys(operation.responses)
    .filter((status) => /^[1-4][0-9][0-9]$/.test(status))
    .map((status) => {
      const codes = ERROR_CODE_NAMES.filter((code) => ERROR_CODES[code].status === Number(status))
      return { kind: 'exact', status: [Number(status)], ...(Number(status) >= 300 ? { code: codes } : {}) }
    })
}

/** A fuzzed endpoint for one route, from its schemas. `setup` seeds the ids path parameters pick from. */
export function schemaEndpoint(route: Route, setup: (wire: Wire) => Promise<FuzzContext>): EndpointFuzz {
  const body = route.body ? (isBodySchema(route.body) ? route.body.schema : route.body) : undefined
  const bodySchema = body ? (z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : undefined
  const options = oracleOf(route)
  const response = route.response instanceof z.ZodType ? route.response : undefined
  return {
    name: fuzzName(route),
    setup,
    statuses: new Set(options.flatMap((option) => option.status)),
    cases: (context) =>
      fc
        .tuple(
          pathText(route, context),
          route.query ? queryText(route) : fc.constant(''),
          bodySchema ? bodyText(bodySchema) : fc.constant(undefined),
        )
        .map(([path, query, text]): FuzzCase => {
          const headers: Array<[string, string]> = []
          if (route.scope === 'api') headers.push(['authorization', 'Bearer test_pro'])
          if (text !== undefined) headers.push(['content-type', 'application/json'])
          return {
            request: { method: route.method, path: path + query, headers, body: text },
            expect: { kind: 'oneOf', options },
            checkSuccess: (body) => {
              if (!response) return body === undefined ? undefined : 'a body on a route that answers none'
              const parsed = response.safeParse(body)
              return parsed.success
                ? undefined
                : `success body outside the response schema: ${parsed.error.message.slice(0, 300)}`
            },
            label: 'from the schemas',
          }
        }),
  }
}
