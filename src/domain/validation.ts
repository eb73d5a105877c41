import type { z } from 'zod'
import type { BodySchema } from '../schemas/messages.js'
import { ApiError } from './errors.js'

type JsonObject = Record<string, unknown>

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Unwraps optional/nullable wrappers to the schema underneath. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema
  while (current.def.type === 'optional' || current.def.type === 'nullable') {
    current = (current.def as unknown as { innerType: z.ZodType }).innerType
  }
  return current
}

function isOptional(schema: z.ZodType): boolean {
  return schema.def.type === 'optional'
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const inner = unwrap(schema)
  return inner.def.type === 'object' ? (inner as z.ZodObject).shape : undefined
}

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key
}

/** First key of `body` (in the order sent) that the shape does not know, nested objects included. */
function findUnknown(body: JsonObject, shape: Record<string, z.ZodType>, prefix: string): string | undefined {
  for (const key of Object.keys(body)) {
    // `Object.hasOwn` so that "constructor", "__proto__" and "toString" are unknown like any other key.
    if (!Object.hasOwn(shape, key)) return join(prefix, key)
  }
  for (const [key, fieldSchema] of Object.entries(shape)) {
    const nested = shapeOf(fieldSchema)
    const value = body[key]
    if (nested && isPlainObject(value)) {
      const found = findUnknown(value, nested, join(prefix, key))
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** First required field (in the schema's order) that is absent, nested objects included. */
function findMissing(body: JsonObject, shape: Record<string, z.ZodType>, prefix: string): string | undefined {
  for (const [key, fieldSchema] of Object.entries(shape)) {
    if (body[key] === undefined && !isOptional(fieldSchema)) return join(prefix, key)
  }
  for (const [key, fieldSchema] of Object.entries(shape)) {
    const nested = shapeOf(fieldSchema)
    const value = body[key]
    if (nested && isPlainObject(value)) {
      const found = findMissing(value, nested, join(prefix, key))
      if (found) return found
    }
  }
  return undefined
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = body
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

function dotted(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key)
  }
  return out
}

/**
 * Validates a parsed JSON body against a request schema, reporting the first problem in the
 * contract's order: unknown field → missing field → field rules in the schema's field order.
 * Returns the parsed value; throws an {@link ApiError} (400) otherwise.
 */
export function validateBody<T extends z.ZodObject>(spec: BodySchema<T>, body: JsonObject): z.infer<T> {
  const shape = spec.schema.shape
  const unknown = findUnknown(body, shape, '')
  if (unknown !== undefined) {
    const known = Object.keys(shape).join('`, `')
    throw new ApiError(400, 'unknown_parameter', `Unknown parameter \`${unknown}\`. This endpoint accepts \`${known}\`; check the spelling (fields are snake_case).`, unknown)
  }
  const missing = findMissing(body, shape, '')
  if (missing) {
    throw new ApiError(400, 'missing_parameter', `Missing required parameter \`${missing}\`.`, missing)
  }
  const result = spec.schema.safeParse(body)
  if (result.success) return result.data
  const order = Object.keys(shape)
  const issues = [...result.error.issues].sort(
    (a, b) => order.indexOf(String(a.path[0])) - order.indexOf(String(b.path[0])),
  )
  const issue = issues[0]
  const param = dotted(issue.path)
  const fieldKey = issue.path.filter((key) => typeof key === 'string').join('.')
  if (issue.code === 'invalid_type') {
    const expected = (issue as { expected?: string }).expected ?? 'value'
    const article = /^[aeiou]/.test(expected) ? 'an' : 'a'
    throw new ApiError(400, 'invalid_parameter', `\`${param}\` must be ${article} ${expected}, not ${describe(valueAt(body, issue.path))}.`, param)
  }
  const formatCode = spec.formatCodes[fieldKey]
  throw new ApiError(400, formatCode ?? 'invalid_parameter', issue.message, param)
}

export { isPlainObject }
