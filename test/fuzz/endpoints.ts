/**
 * Every fuzzed endpoint: the seven API endpoints, the /__sandbox controls that take input, the
 * admin-token guard and the catch-alls. Each one generates whole requests (body, query, headers)
 * and computes what a correct sandbox answers, as far as that is cheap to know.
 */
import fc from 'fast-check'
import { ROUTES } from '../../src/http/routes.js'
import { CHANNELS, INBOUND_CHANNELS } from '../../src/contract/constants.js'
import type {
  EndpointFuzz,
  ExactExpectation,
  Expectation,
  FuzzCase,
  FuzzContext,
  FuzzRequest,
  Wire,
} from './fuzz-kit.js'
import {
  codePoints,
  EMAIL_EDGES,
  edgeString,
  emailRule,
  hostileKey,
  lengthRule,
  objectText,
  PHONE_EDGES,
  phoneRule,
  POLLUTION_TEXTS,
  validEmail,
  validLengthString,
  validPhone,
  weirdString,
  wellFormed,
  wrongTypeText,
  type Edge,
  type FieldType,
} from './values.js'
import { fuzzName, judgedGenerically, NOT_FUZZED, schemaEndpoint, takesInput } from './schema-fuzz.js'

const MAX_BODY = 1024 * 1024
const KEYS = new Set(['test_starter', 'test_pro', 'test_enterprise'])
const encoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true })

// ---------------------------------------------------------------------------------------------
// Headers

/** A header value fetch can carry: Latin-1 without control characters. */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
})

/** Authorization header variants (undefined: absent). */
const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('Bearer test_pro') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'bearer test_pro',
      'BEARER  test_pro',
      'Bearer\ttest_pro',
      'Bearer test_enterprise',
      'Bearer test_starter',
      ' Bearer test_pro ',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'Basic dGVzdF9wcm86',
        'Bearer TEST_PRO',
        'Bearer test_pro2',
        'Token test_pro',
        'Bearer test_pro test_pro',
        'Bearertest_pro',
        'Bearer test_pro\u00a0',
        'Bearer "test_pro"',
        'Bearer test_pr',
        'Bearer ,test_pro',
      ),
      headerText,
      headerText.map((s) => `Bearer ${s}`),
    ),
  },
)

/** Content-Type variants for requests with a body (undefined: absent). */
const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json;charset=UTF-8',
      'Application/Json ; x=y',
      'application/json\t;q=1',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(
        '',
        'text/plain',
        'application/jsonp',
        'application/json-patch+json',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'text/json',
        'application/javascript',
        'json',
        '*/*',
        'application/vnd.api+json',
      ),
      headerText,
    ),
  },
)

/** `Prefer` variants (undefined: absent) and what they force. */
const prefer: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'code=404',
      'code=400',
      'code=429',
      'code=503',
      'code=500',
      'code=200',
      'delay=0',
      'code=abc',
      'code=302',
      'code=',
      'delay=-1',
      'delay=99999',
      'code=418',
      'foo=bar',
      'code=404, delay=1',
    ),
  },
)

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i

/** Whether an Authorization value authenticates (fetch trims header values first). */
export function authOk(value: string | undefined): boolean {
  return keyOf(value) !== undefined
}

/** The configured key an Authorization value carries, if any. */
export function keyOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const match = BEARER.exec(httpTrim(value))
  return match !== null && KEYS.has(match[1]) ? match[1] : undefined
}

/** fetch strips HTTP whitespace (not every Unicode space, as String#trim does) around header values. */
function httpTrim(value: string): string {
  return value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')
}

function contentTypeOk(value: string | undefined): boolean {
  return value !== undefined && /^application\/json[ \t]*(?:;|$)/i.test(httpTrim(value))
}

/** What `Prefer` does: an error it causes, or the status it forces. */
function preferEffect(value: string | undefined): Expectation | undefined {
  if (value === undefined) return undefined
  let code: number | undefined
  let delay: number | undefined
  for (const part of value.split(/[,;]/)) {
    const [name, v] = part.split('=').map((s) => s.trim())
    if (name !== 'code' && name !== 'delay') continue
    if (!/^[0-9]{1,6}$/.test(v ?? '')) return { kind: 'exact', status: [400], code: ['invalid_parameter'] }
    if (name === 'code') code = Number(v)
    else delay = Number(v)
  }
  const forceable = (s: number) => s === 400 || s === 401 || s === 404 || s === 429 || (s >= 500 && s <= 599)
  if (code !== undefined && code >= 300 && !forceable(code))
    return { kind: 'exact', status: [400], code: ['invalid_parameter'] }
  if (delay !== undefined && delay > 60_000) return { kind: 'exact', status: [400], code: ['invalid_parameter'] }
  if (code !== undefined && code >= 300) {
    const forced =
      code === 400
        ? 'invalid_parameter'
        : code === 401
          ? 'unauthorized'
          : code === 404
            ? 'not_found'
            : code === 429
              ? 'rate_limit_exceeded'
              : 'internal_error'
    return { kind: 'exact', status: [code], code: [forced] }
  }
  return undefined
}

interface HeaderChoice {
  authorization: string | undefined
  contentType: string | undefined
  prefer: string | undefined
}

const headerChoice: fc.Arbitrary<HeaderChoice> = fc.record({ authorization, contentType, prefer })

function headerList(choice: HeaderChoice, withBody: boolean): Array<[string, string]> {
  const list: Array<[string, string]> = []
  if (choice.authorization !== undefined) list.push(['authorization', choice.authorization])
  if (withBody && choice.contentType !== undefined) list.push(['content-type', choice.contentType])
  if (choice.prefer !== undefined) list.push(['prefer', choice.prefer])
  return list
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** One field of a request body. */
interface FieldDef {
  name: string
  type: FieldType
  required: boolean
  nullable: boolean
  /** Valid JSON texts. */
  valid: fc.Arbitrary<string>
  /** Edge values of the right type, judged. */
  edge: fc.Arbitrary<Edge>
  /** Code of a rejected edge value. */
  code: string
}

interface BodyDef {
  fields: FieldDef[]
  /** At least one of these must be present and non-null (subscriber create). */
  atLeastOne?: string[]
  /** At least one field (subscriber update). */
  nonEmpty?: boolean
  /** What a valid body gets. */
  success: Expectation
  /** Checks a 200 body given the request's parsed body. */
  check200?: (sent: Record<string, unknown>, body: unknown) => string | undefined
  /** Whether an unknown field is named in `param` (the API's errors do; the fault control's only in the message). */
  unknownParam: boolean
}

/** A body as generated: JSON text or raw bytes, and what its content alone should get. */
interface BodyVariant {
  body: string | Uint8Array
  expect: Expectation
  label: string
}

type Entries = Array<[string, string]>

function validEntries(def: BodyDef): fc.Arbitrary<Entries> {
  return fc
    .tuple(
      ...def.fields.map((f) =>
        f.required
          ? f.valid.map((t) => [f.name, t] as [string, string])
          : fc.option(
              f.valid.map((t) => [f.name, t] as [string, string]),
              { nil: undefined },
            ),
      ),
    )
    .map((list) => list.filter((e): e is [string, string] => e !== undefined))
    .filter(
      (entries) =>
        (!def.atLeastOne || entries.some(([k, t]) => def.atLeastOne!.includes(k) && t !== 'null')) &&
        (!def.nonEmpty || entries.length > 0),
    )
}

const bad = (code: string, param?: { exact: string } | { prefix: string }): Expectation => ({
  kind: 'exact',
  status: [400],
  code: [code],
  param,
})
const NOT_FOUND: ExactExpectation = { kind: 'exact', status: [404], code: ['not_found'] }

function bodyVariants(def: BodyDef): fc.Arbitrary<BodyVariant> {
  const names = new Set(def.fields.map((f) => f.name))
  const unknownKey = hostileKey.filter((k) => !names.has(k))
  const anyValue = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.constantFrom(...POLLUTION_TEXTS),
  )
  const valid = validEntries(def).map((entries): BodyVariant => ({
    body: objectText(entries),
    expect: def.success,
    label: 'valid',
  }))
  const unknown = fc
    .tuple(validEntries(def), unknownKey, anyValue, fc.nat())
    .map(([entries, key, value, at]): BodyVariant => {
      const list: Entries = [...entries]
      list.splice(at % (list.length + 1), 0, [key, value])
      return {
        body: objectText(list),
        expect: bad('unknown_parameter', def.unknownParam ? { exact: key } : undefined),
        label: 'unknown-field',
      }
    })
  const variants: Array<fc.Arbitrary<BodyVariant>> = [valid, unknown]
  const required = def.fields.filter((f) => f.required)
  if (required.length > 0) {
    variants.push(
      fc.tuple(validEntries(def), fc.constantFrom(...required)).map(([entries, field]): BodyVariant => ({
        body: objectText(entries.filter(([k]) => k !== field.name)),
        expect: bad('missing_parameter', { exact: field.name }),
        label: 'missing-field',
      })),
    )
  }
  if (def.atLeastOne) {
    const contact = def.atLeastOne
    variants.push(
      validEntries(def).map((entries): BodyVariant => ({
        body: objectText(entries.filter(([k]) => !contact.includes(k))),
        expect: bad('missing_parameter'),
        label: 'no-contact',
      })),
    )
  }
  if (def.nonEmpty)
    variants.push(fc.constant<BodyVariant>({ body: '{}', expect: bad('missing_parameter'), label: 'empty-update' }))
  // One field of the wrong type: invalid_parameter naming that field.
  variants.push(
    fc.tuple(validEntries(def), fc.constantFrom(...def.fields)).chain(([entries, field]) =>
      wrongTypeText(field.type, field.nullable).map((text): BodyVariant => ({
        body: objectText(replace(entries, field.name, text)),
        expect: bad('invalid_parameter', { prefix: field.name }),
        label: `wrong-type:${field.name}`,
      })),
    ),
  )
  // One field at an edge of its rules: accepted or rejected exactly as the contract says.
  variants.push(
    fc.tuple(validEntries(def), fc.constantFrom(...def.fields)).chain(([entries, field]) =>
      field.edge.map((edge): BodyVariant => {
        const rejected = bad(edge.code ?? field.code, { prefix: edge.param ?? field.name })
        const expect: Expectation =
          edge.ok === true ? def.success : edge.ok === false ? rejected : union(def.success, rejected)
        return { body: objectText(replace(entries, field.name, edge.text)), expect, label: `edge:${field.name}` }
      }),
    ),
  )
  // Whatever bytes: only the generic rules (empty/not JSON/not an object → invalid_json).
  variants.push(chaosBody.map((body): BodyVariant => ({ body, expect: { kind: 'any' }, label: 'chaos' })))
  // Around the 1 MiB cap: padded with an unknown field, so under the cap → unknown_parameter.
  variants.push(
    fc
      .tuple(validEntries(def), fc.integer({ min: -64, max: 64 }), fc.constantFrom('a', 'é', '🙂'))
      .map(([entries, delta, unit]): BodyVariant => {
        const head = objectText([...entries, ['pad', '""']])
        const room = MAX_BODY + delta - encoder.encode(head).length
        const unitBytes = encoder.encode(unit).length
        const padding =
          unit.repeat(Math.max(0, Math.floor(room / unitBytes))) + 'a'.repeat(Math.max(0, room % unitBytes))
        const body = objectText([...entries, ['pad', JSON.stringify(padding)]])
        return {
          body,
          expect: bad('unknown_parameter', def.unknownParam ? { exact: 'pad' } : undefined),
          label: 'near-cap',
        }
      }),
  )
  return fc.oneof(
    { weight: 6, arbitrary: variants[0] },
    ...variants.slice(1, -1).map((arbitrary) => ({ weight: 3, arbitrary })),
    { weight: 1, arbitrary: variants[variants.length - 1] },
  )
}

function replace(entries: Entries, name: string, text: string): Entries {
  const out: Entries = entries.filter(([k]) => k !== name)
  out.push([name, text])
  return out
}

function union(a: Expectation, b: Expectation): Expectation {
  if (a.kind === 'any' || b.kind === 'any') return { kind: 'any' }
  const options = (e: Exclude<Expectation, { kind: 'any' }>) => (e.kind === 'oneOf' ? e.options : [e])
  return { kind: 'oneOf', options: [...options(a), ...options(b)] }
}

/** The same expectation for a resource that does not exist: whatever would have succeeded is a 404. */
function missingResource(e: Expectation): Expectation {
  if (e.kind === 'any') return e
  const options = (e.kind === 'oneOf' ? e.options : [e]).filter(
    (o) => !o.status.includes(200) && !(o.code ?? []).includes('duplicate_email'),
  )
  if (options.length === (e.kind === 'oneOf' ? e.options.length : 1)) return e
  return { kind: 'oneOf', options: [...options, NOT_FOUND] }
}

/** Bodies that are anything at all. */
const chaosBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'true',
    '0',
    '"x"',
    '[]',
    '[{}]',
    '{',
    '}',
    '{"to":}',
    "{'to':'a'}",
    '{to:"a"}',
    '{"to":"a",}',
    '\uFEFF{}',
    '{}\u0000',
    'NaN',
    '{"a":1}{"b":2}',
    ...POLLUTION_TEXTS,
  ),
  weirdString,
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(
    new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]),
    new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    new Uint8Array([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]),
  ),
  fc
    .tuple(fc.integer({ min: 1, max: 50_000 }), fc.constantFrom('[', '{"a":', '{"__proto__":'))
    .map(([n, open]) => open.repeat(n)),
)

/** What the body alone earns, in the contract's order: size → empty → content type → JSON → object → fields. */
function bodyExpectation(variant: BodyVariant, contentTypeValue: string | undefined): Expectation {
  const bytes = typeof variant.body === 'string' ? encoder.encode(variant.body) : variant.body
  if (bytes.byteLength > MAX_BODY) return bad('payload_too_large')
  if (bytes.byteLength === 0) return bad('invalid_json')
  // fetch labels a string body text/plain when no Content-Type is given.
  const effective = contentTypeValue ?? (typeof variant.body === 'string' ? 'text/plain;charset=UTF-8' : undefined)
  if (!contentTypeOk(effective)) return bad('invalid_content_type')
  let parsed: unknown
  try {
    parsed = JSON.parse(strictDecoder.decode(bytes))
  } catch {
    return bad('invalid_json')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bad('invalid_json')
  return variant.expect
}

/** Puts auth, Prefer, route and body together in the contract's order. */
function compose(auth: string | undefined, preferValue: string | undefined, rest: () => Expectation): Expectation {
  if (!authOk(auth)) return { kind: 'exact', status: [401], code: ['unauthorized'] }
  return preferEffect(preferValue) ?? rest()
}

/** A POST/PUT endpoint with a JSON body. */
function bodyEndpoint(options: {
  method: 'POST' | 'PUT'
  def: BodyDef
  /** The path, and whether the addressed resource exists (for every key, or only test_pro's account). */
  path: (context: FuzzContext) => fc.Arbitrary<Target>
  /** A /__sandbox control: no API key, no `Prefer`, no rate limit. */
  control?: boolean
}): (context: FuzzContext) => fc.Arbitrary<FuzzCase> {
  return (context) =>
    fc
      .tuple(options.path(context), bodyVariants(options.def), headerChoice)
      .map(([target, variant, headers]): FuzzCase => {
        const request: FuzzRequest = {
          method: options.method,
          path: target.path,
          headers: headerList(headers, true),
          body: variant.body,
        }
        const expect = (options.control ? (_a: unknown, _p: unknown, rest: () => Expectation) => rest() : compose)(
          headers.authorization,
          headers.prefer,
          () => {
            if (!target.routed) return NOT_FOUND
            const fromBody = bodyExpectation(variant, headers.contentType)
            const exists =
              target.exists === 'always' ||
              (target.exists === 'test_pro' && keyOf(headers.authorization) === 'test_pro')
            return exists ? fromBody : missingResource(fromBody)
          },
        )
        const sent = typeof variant.body === 'string' && variant.label !== 'chaos' ? safeParse(variant.body) : undefined
        return {
          request,
          expect,
          label: variant.label,
          check200: (body) =>
            options.def.check200 && sent ? options.def.check200(sent, body) : sendOrResourceShape(body),
        }
      })
}

function safeParse(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}

function sendOrResourceShape(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null ? undefined : '200 body is not an object'
}

// ---------------------------------------------------------------------------------------------
// Field definitions

function stringField(
  name: string,
  required: boolean,
  min: number,
  max: number,
  extra: readonly string[] = [],
): FieldDef {
  return {
    name,
    type: 'string',
    required,
    nullable: false,
    valid: validLengthString(min, max).map((s) => JSON.stringify(s)),
    edge: edgeString(lengthRule(min, max), extra),
    code: 'invalid_parameter',
  }
}

function patternField(
  name: string,
  required: boolean,
  valid: fc.Arbitrary<string>,
  pattern: RegExp,
  extra: readonly string[],
): FieldDef {
  return {
    name,
    type: 'string',
    required,
    nullable: false,
    valid: valid.map((s) => JSON.stringify(s)),
    edge: edgeString((s) => pattern.test(s), extra),
    code: 'invalid_parameter',
  }
}

function emailField(name: string, required: boolean, nullable = false): FieldDef {
  return {
    name,
    type: 'string',
    required,
    nullable,
    valid: validEmail.map((s) => JSON.stringify(s)),
    edge: edgeString(emailRule, EMAIL_EDGES),
    code: 'invalid_email',
  }
}

function phoneField(name: string, required: boolean, nullable = false): FieldDef {
  return {
    name,
    type: 'string',
    required,
    nullable,
    valid: validPhone.map((s) => JSON.stringify(s)),
    edge: edgeString(phoneRule, PHONE_EDGES),
    code: 'invalid_phone',
  }
}

const SEND_OK: Expectation = { kind: 'exact', status: [200] }

function checkSendResult(_sent: Record<string, unknown>, body: unknown): string | undefined {
  const b = body as Record<string, unknown>
  if (JSON.stringify(Object.keys(b)) !== '["success","message_id","status"]')
    return `send result keys ${JSON.stringify(Object.keys(b))}`
  if (
    b.success !== true ||
    b.status !== 'queued' ||
    typeof b.message_id !== 'string' ||
    !/^msg_[A-Za-z0-9_-]+$/.test(b.message_id)
  )
    return `bad send result ${JSON.stringify(b)}`
  return undefined
}

const emailFrom: FieldDef = {
  name: 'from',
  type: 'object',
  required: false,
  nullable: false,
  valid: fc
    .tuple(validEmail, fc.option(validLengthString(1, 256), { nil: undefined }))
    .map(([email, name]) => JSON.stringify(name === undefined ? { email } : { email, name })),
  edge: fc.oneof(
    edgeString(emailRule, EMAIL_EDGES).map((e): Edge => ({
      text: `{"email":${e.text}}`,
      ok: e.ok,
      param: 'from.email',
      code: 'invalid_email',
    })),
    edgeString(lengthRule(1, 256)).map((e): Edge => ({
      text: `{"email":"ana@example.com","name":${e.text}}`,
      ok: e.ok,
      param: 'from.name',
      code: 'invalid_parameter',
    })),
    fc
      .tuple(
        hostileKey.filter((k) => k !== 'email' && k !== 'name'),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map(([key, value]): Edge => ({
        text: objectText([
          ['email', '"ana@example.com"'],
          [key, JSON.stringify(value)],
        ]),
        ok: false,
        param: `from.${key}`,
        code: 'unknown_parameter',
      })),
    fc.constant<Edge>({ text: '{"name":"Ana"}', ok: false, param: 'from.email', code: 'missing_parameter' }),
  ),
  code: 'invalid_parameter',
}

const emailDef: BodyDef = {
  fields: [
    emailField('to', true),
    stringField('subject', true, 1, 998),
    { ...stringField('html', true, 1, Number.MAX_SAFE_INTEGER), edge: edgeString((s) => s.length >= 1) },
    emailFrom,
  ],
  success: SEND_OK,
  check200: checkSendResult,
  unknownParam: true,
}

const smsDef: BodyDef = {
  fields: [
    phoneField('to', true),
    stringField('message', true, 1, 1600),
    patternField(
      'from',
      false,
      fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{1,11}$/), validPhone),
      /^(?:[A-Za-z0-9]{1,11}|\+[0-9]{8,15})$/,
      ['Acme', 'ABCDEFGHIJK', 'ABCDEFGHIJKL', 'Acme Inc', '+14155550123', '+1415', 'ÄCME', ''],
    ),
  ],
  success: SEND_OK,
  check200: checkSendResult,
  unknownParam: true,
}

const templateParameters: FieldDef = {
  name: 'parameters',
  type: 'string-map',
  required: false,
  nullable: false,
  valid: fc
    .uniqueArray(
      fc.tuple(
        hostileKey,
        weirdString.map((s) => JSON.stringify(s)),
      ),
      { selector: (e) => e[0], maxLength: 5 },
    )
    .map(objectText),
  edge: fc
    .uniqueArray(
      fc.tuple(
        hostileKey,
        weirdString.map((s) => JSON.stringify(s)),
      ),
      { selector: (e) => e[0], maxLength: 5 },
    )
    .map((entries): Edge => ({ text: objectText(entries), ok: true })),
  code: 'invalid_parameter',
}

const whatsappDef: BodyDef = {
  fields: [
    phoneField('to', true),
    patternField('template', true, fc.stringMatching(/^[a-z0-9_]{1,40}$/), /^[a-z0-9_]{1,512}$/, [
      'order_update',
      'Order_update',
      'order-update',
      'a'.repeat(512),
      'a'.repeat(513),
      'ü',
      '',
    ]),
    patternField('language', true, fc.stringMatching(/^[a-z]{2,3}(_[A-Z]{2})?$/), /^[a-z]{2,3}(_[A-Z]{2})?$/, [
      'en',
      'en_US',
      'EN',
      'en_us',
      'en-US',
      'eng',
      'en_USA',
      'e',
      'engl',
      'en_U',
      '',
    ]),
    templateParameters,
  ],
  success: SEND_OK,
  check200: checkSendResult,
  unknownParam: true,
}

const tagsField: FieldDef = {
  name: 'tags',
  type: 'string-array',
  required: false,
  nullable: true,
  valid: fc
    .array(validLengthString(1, 64), { maxLength: 12 })
    .chain((tags) => fc.boolean().map((dup) => JSON.stringify(dup && tags.length > 0 ? [...tags, tags[0]] : tags))),
  edge: fc.oneof(
    fc.array(weirdString, { maxLength: 6 }).map((tags): Edge => ({
      text: JSON.stringify(tags),
      ok: tags.every((t) => codePoints(t) >= 1 && codePoints(t) <= 64),
    })),
    fc
      .constantFrom(99, 100, 101, 150)
      .map((n): Edge => ({ text: JSON.stringify(Array.from({ length: n }, (_, i) => `t${i % 50}`)), ok: n <= 100 })),
  ),
  code: 'invalid_parameter',
}

function subscriberFields(contactNullable: boolean): FieldDef[] {
  return [
    emailField('email', false, true),
    phoneField('phone', false, true),
    {
      ...stringField('first_name', false, 1, 256),
      nullable: true,
      valid: fc.oneof(
        { weight: 4, arbitrary: validLengthString(1, 256).map((s) => JSON.stringify(s)) },
        { weight: 1, arbitrary: fc.constant('null') },
      ),
    },
    {
      ...tagsField,
      valid: fc.oneof({ weight: 4, arbitrary: tagsField.valid }, { weight: 1, arbitrary: fc.constant('null') }),
    },
  ].map((f) =>
    contactNullable && (f.name === 'email' || f.name === 'phone')
      ? { ...f, valid: fc.oneof({ weight: 4, arbitrary: f.valid }, { weight: 1, arbitrary: fc.constant('null') }) }
      : f,
  )
}

function checkSubscriber(sent: Record<string, unknown>, body: unknown, partial: boolean): string | undefined {
  const b = body as Record<string, unknown>
  if (JSON.stringify(Object.keys(b)) !== '["id","email","phone","first_name","tags","created_at","updated_at"]')
    return `subscriber keys ${JSON.stringify(Object.keys(b))}`
  if (typeof b.id !== 'string' || !/^sub_[A-Za-z0-9_-]+$/.test(b.id)) return `subscriber id ${JSON.stringify(b.id)}`
  for (const field of ['email', 'phone', 'first_name'] as const) {
    if (partial && !(field in sent)) continue
    if ((sent[field] ?? null) !== b[field])
      return `${field} stored as ${JSON.stringify(b[field])}, sent ${JSON.stringify(sent[field])}`
  }
  if (!partial || 'tags' in sent) {
    const expected = [...new Set((sent.tags as string[] | null | undefined) ?? [])]
    if (JSON.stringify(expected) !== JSON.stringify(b.tags))
      return `tags stored as ${JSON.stringify(b.tags)}, expected ${JSON.stringify(expected)}`
  }
  if (Number.isNaN(Date.parse(String(b.created_at))) || Number.isNaN(Date.parse(String(b.updated_at))))
    return 'timestamps are not ISO 8601'
  return undefined
}

const createDef: BodyDef = {
  fields: subscriberFields(true),
  atLeastOne: ['email', 'phone'],
  success: {
    kind: 'oneOf',
    options: [
      { kind: 'exact', status: [200] },
      { kind: 'exact', status: [400], code: ['duplicate_email'], param: { exact: 'email' } },
    ],
  },
  check200: (sent, body) => checkSubscriber(sent, body, false),
  unknownParam: true,
}

const updateDef: BodyDef = {
  fields: subscriberFields(false),
  nonEmpty: true,
  success: {
    kind: 'oneOf',
    options: [
      { kind: 'exact', status: [200] },
      { kind: 'exact', status: [400], code: ['duplicate_email'], param: { exact: 'email' } },
    ],
  },
  check200: (sent, body) => checkSubscriber(sent, body, true),
  unknownParam: true,
}

const FAULT_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'])
const forceable = (n: number) =>
  Number.isInteger(n) && (n === 400 || n === 401 || n === 404 || n === 429 || (n >= 500 && n <= 599))

function numberEdge(rule: (n: number) => boolean | undefined, extra: number[]): fc.Arbitrary<Edge> {
  return fc
    .oneof(
      fc.integer({ min: -10, max: 70_000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(...extra),
    )
    .map((n) => ({ text: JSON.stringify(n), ok: rule(n) }))
}

const faultDef: BodyDef = {
  fields: [
    {
      name: 'status',
      type: 'number',
      required: true,
      nullable: false,
      valid: fc.constantFrom(400, 401, 404, 429, 500, 502, 503, 599).map(String),
      edge: numberEdge(forceable, [400, 401, 404, 429, 500, 599, 600, 200, 302, 499, 500.5, 1e3, -0]),
      code: 'invalid_parameter',
    },
    patternField('code', false, fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/), /^[a-z][a-z0-9_]{0,63}$/, [
      'service_unavailable',
      'Bad',
      '_x',
      'a'.repeat(64),
      'a'.repeat(65),
      '',
    ]),
    {
      ...patternField('path', false, fc.constantFrom('/v1/sms/send', '/v1/email/send', '/v1/subscribers', '/'), /^\//, [
        '/',
        '/v1',
        'v1/sms/send',
        '',
        '//x',
        '/\u0000',
      ]),
    },
    {
      name: 'method',
      type: 'string',
      required: false,
      nullable: false,
      valid: fc.constantFrom('GET', 'post', 'Put', 'DELETE', 'patch').map((s) => JSON.stringify(s)),
      edge: edgeString((s) => FAULT_METHODS.has(s.toUpperCase()), ['get', 'HEAD', 'OPTIONS', 'ﬀ', 'delete ', 'pöst']),
      code: 'invalid_parameter',
    },
    {
      name: 'times',
      type: 'number',
      required: false,
      nullable: false,
      valid: fc.integer({ min: 1, max: 1000 }).map(String),
      edge: numberEdge(
        (n) => (Number.isSafeInteger(n) ? n >= 1 : Number.isInteger(n) ? undefined : false),
        [0, 1, -1, 1.5, 2 ** 53, 1e300],
      ),
      code: 'invalid_parameter',
    },
    {
      name: 'probability',
      type: 'number',
      required: false,
      nullable: false,
      valid: fc.double({ min: 0, max: 1, noNaN: true }).map((n) => JSON.stringify(n)),
      edge: numberEdge((n) => n >= 0 && n <= 1, [0, 1, -0, 1.0000001, -1e-9, 0.5]),
      code: 'invalid_parameter',
    },
    {
      name: 'delay_ms',
      type: 'number',
      required: false,
      nullable: false,
      valid: fc.integer({ min: 0, max: 60_000 }).map(String),
      edge: numberEdge((n) => Number.isInteger(n) && n >= 0 && n <= 60_000, [0, 60_000, 60_001, -1, 0.5]),
      code: 'invalid_parameter',
    },
  ],
  success: { kind: 'exact', status: [200] },
  check200: (_sent, body) =>
    /^flt_\d+$/.test(String((body as { id?: unknown }).id)) ? undefined : `fault answer ${JSON.stringify(body)}`,
  unknownParam: false,
}

// ---------------------------------------------------------------------------------------------
// Paths and queries

const ORIGIN = 'http://sandbox.invalid'

/** A path segment from hostile text, percent-encoded, never a dot segment. */
const idSegment: fc.Arbitrary<string> = fc
  .oneof(weirdString, fc.stringMatching(/^sub_[A-Za-z0-9]{1,24}$/))
  .map((s) => encodeURIComponent(wellFormed(s)))
  .filter((s) => s !== '' && s !== '.' && s !== '..')

/** Where a generated request goes. */
interface Target {
  path: string
  /** `test_pro`: the resource exists in test_pro's account only (the seed's); other keys get 404. */
  exists: 'always' | 'test_pro' | 'never'
  routed: boolean
}

function fixed(path: string): () => fc.Arbitrary<Target> {
  return () => fc.constant({ path, exists: 'always', routed: true })
}

function subscriberPath(context: FuzzContext, routedOnly: boolean): fc.Arbitrary<Target> {
  const existing =
    context.subscriberIds.length > 0
      ? [
          {
            weight: 6,
            arbitrary: fc
              .constantFrom(...context.subscriberIds)
              .map((id): Target => ({ path: `/v1/subscribers/${id}`, exists: 'test_pro', routed: true })),
          },
        ]
      : []
  const safeUnknown = {
    weight: 2,
    arbitrary: fc
      .stringMatching(/^sub_[A-Za-z0-9]{1,24}$/)
      .filter((id) => !context.subscriberIds.includes(id))
      .map((id): Target => ({ path: `/v1/subscribers/${id}`, exists: 'never', routed: true })),
  }
  const hostile = {
    weight: 1,
    arbitrary: idSegment
      .filter((id) => !context.subscriberIds.includes(decodeURIComponent(id)))
      .map((id): Target => ({ path: `/v1/subscribers/${id}`, exists: 'never', routed: true })),
  }
  return fc.oneof(...existing, safeUnknown, ...(routedOnly ? [] : [hostile]))
}

/** Query values around the digits-only rule. */
const numberish: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 150 }).map(String) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '0',
      '00',
      '1',
      '01',
      '007',
      '20',
      '100',
      '101',
      '-1',
      '+1',
      '1.0',
      '1.',
      '.5',
      '1e2',
      '1E2',
      '0x10',
      ' 1',
      '1 ',
      '',
      '١',
      '１',
      '9007199254740991',
      '9007199254740992',
      '99999999999999999999',
      'NaN',
      'Infinity',
      'null',
      'true',
      '[]',
      '1,2',
      '%31',
    ),
  },
  { weight: 1, arbitrary: weirdString },
)

const queryName = fc.constantFrom(
  'page',
  'limit',
  'page',
  'limit',
  'Page',
  'LIMIT',
  'page[]',
  'p',
  '__proto__',
  'constructor',
  'foo',
  'page ',
  'limit\u0000',
)

type QueryPair = [string, string]

function queryString(pairs: fc.Arbitrary<QueryPair[]>): fc.Arbitrary<string> {
  return fc
    .tuple(pairs, fc.constantFrom('encoded', 'encoded', 'raw'))
    .map(([list, mode]) =>
      list.length === 0
        ? ''
        : `?${list.map(([k, v]) => (mode === 'raw' ? `${k}=${v}` : `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`)).join('&')}`,
    )
}

/** The contract's page/limit rules, applied to what the server will see. */
function pageOf(params: URLSearchParams): { page: number; limit: number } | { error: string } {
  const read = (name: string, fallback: number, max: number): number | undefined => {
    const raw = params.get(name)
    if (raw === null) return fallback
    const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN
    // Digits only, never clamped: past its maximum a value is an error, not a shortened echo (issue 27).
    return value >= 1 && value <= max ? value : undefined
  }
  const page = read('page', 1, 1_000_000_000)
  if (page === undefined) return { error: 'page' }
  const limit = read('limit', 20, 100)
  if (limit === undefined) return { error: 'limit' }
  return { page, limit }
}

function checkPage(body: unknown, page: number, limit: number, total: number | undefined): string | undefined {
  const b = body as { data?: unknown[]; pagination?: Record<string, number> }
  if (!Array.isArray(b.data) || typeof b.pagination !== 'object') return 'not a pagination envelope'
  const p = b.pagination
  if (p.page !== page || p.limit !== limit) return `pagination echoes ${p.page}/${p.limit}, asked ${page}/${limit}`
  const t = total ?? p.total
  if (p.total !== t) return `total ${p.total}, expected ${t}`
  if (p.pages !== Math.ceil(t / limit)) return `pages ${p.pages} for total ${t} and limit ${limit}`
  const expectedLength = Math.max(0, Math.min(limit, t - (page - 1) * limit))
  if (b.data.length !== expectedLength) return `page holds ${b.data.length} items, expected ${expectedLength}`
  return undefined
}

function listCases(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  return fc
    .tuple(queryString(fc.array(fc.tuple(queryName, numberish), { maxLength: 4 })), headerChoice)
    .map(([query, headers]): FuzzCase => {
      const path = `/v1/subscribers${query}`
      const paging = pageOf(new URL(ORIGIN + path).searchParams)
      const expect = compose(headers.authorization, headers.prefer, () =>
        'error' in paging ? bad('invalid_parameter', { exact: paging.error }) : { kind: 'exact', status: [200] },
      )
      // The seeded subscribers are test_pro's: every other account counts none of them.
      const total = keyOf(headers.authorization) === 'test_pro' ? context.subscriberTotal : 0
      return {
        request: { method: 'GET', path, headers: headerList(headers, false) },
        expect,
        label: 'list',
        check200: (body) =>
          'error' in paging ? 'expected an error' : checkPage(body, paging.page, paging.limit, total),
      }
    })
}

function getCases(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  return fc.tuple(subscriberPath(context, false), headerChoice).map(([target, headers]): FuzzCase => ({
    request: { method: 'GET', path: target.path, headers: headerList(headers, false) },
    expect: compose(headers.authorization, headers.prefer, () =>
      target.exists === 'test_pro' && keyOf(headers.authorization) === 'test_pro'
        ? { kind: 'exact', status: [200] }
        : NOT_FOUND,
    ),
    label: target.exists === 'test_pro' ? 'get-existing' : 'get-unknown',
    check200: (body) =>
      target.path.endsWith(`/${(body as { id?: string }).id}`) ? undefined : 'answered another subscriber',
  }))
}

const STATUSES = ['queued', 'sent', 'delivered', 'failed']

function messagesListCases(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  const messages = () => context.messages ?? []
  const value = fc.oneof(
    numberish,
    fc.constantFrom(
      ...CHANNELS,
      ...STATUSES,
      'EMAIL',
      'test_pro',
      'test_starter',
      'ana@example.com',
      'ANA@example.com',
      '+14155550123',
      '2026-01-01T00:00:00Z',
      '2026-01-01',
      'Sat, 01 Jan 2000 00:00:00 GMT',
      '1700000000000',
      '0',
      'yesterday',
      '9'.repeat(400),
    ),
  )
  const name = fc.constantFrom(
    'channel',
    'status',
    'to',
    'account',
    'since',
    'page',
    'limit',
    'channel',
    'status',
    'since',
    'foo',
  )
  return queryString(fc.array(fc.tuple(name, value), { maxLength: 5 })).map((query): FuzzCase => {
    const path = `/__sandbox/messages${query}`
    const params = new URL(ORIGIN + path).searchParams
    const paging = pageOf(params)
    const channel = params.get('channel')
    const status = params.get('status')
    const since = params.get('since')
    const sinceMs = since === null ? undefined : /^[0-9]+$/.test(since) ? Number(since) : Date.parse(since)
    let error: string | undefined
    if ('error' in paging) error = paging.error
    else if (channel !== null && !(CHANNELS as readonly string[]).includes(channel)) error = 'channel'
    else if (status !== null && !STATUSES.includes(status)) error = 'status'
    // A time the sandbox can hold: 1970-01-01 to 9999-12-31T23:59:59.999Z (issue 27, N1).
    else if (sinceMs !== undefined && !(sinceMs >= 0 && sinceMs <= 253_402_300_799_999)) error = 'since'
    return {
      request: { method: 'GET', path, headers: [] },
      expect: error ? bad('invalid_parameter', { exact: error }) : { kind: 'exact', status: [200] },
      label: 'messages-list',
      check200: (body) => {
        if ('error' in paging) return 'expected an error'
        const to = params.get('to')?.toLowerCase()
        const account = params.get('account')
        const matching = messages().filter(
          (m) =>
            (channel === null || m.channel === channel) &&
            (status === null || m.status === status) &&
            (account === null || m.account === account) &&
            (to === undefined || m.to.toLowerCase() === to) &&
            (sinceMs === undefined || Date.parse(m.created_at) >= sinceMs),
        )
        const problem = checkPage(body, paging.page, paging.limit, matching.length)
        if (problem) return problem
        const ids = (body as { data: Array<{ message_id: string }> }).data.map((m) => m.message_id)
        const expected = matching
          .slice((paging.page - 1) * paging.limit, paging.page * paging.limit)
          .map((m) => m.message_id)
        return JSON.stringify(ids) === JSON.stringify(expected)
          ? undefined
          : 'listed other messages than the filter selects'
      },
    }
  })
}

function requestsListCases(): fc.Arbitrary<FuzzCase> {
  const name = fc.constantFrom('page', 'limit', 'account', 'foo')
  const value = fc.oneof(numberish, fc.constantFrom('test_pro', 'test_starter', 'nobody'))
  return queryString(fc.array(fc.tuple(name, value), { maxLength: 4 })).map((query): FuzzCase => {
    const path = `/__sandbox/requests${query}`
    const params = new URL(ORIGIN + path).searchParams
    const paging = pageOf(params)
    const account = params.get('account')
    return {
      request: { method: 'GET', path, headers: [] },
      expect: 'error' in paging ? bad('invalid_parameter', { exact: paging.error }) : { kind: 'exact', status: [200] },
      label: 'requests-list',
      check200: (body) => {
        if ('error' in paging) return 'expected an error'
        const problem = checkPage(body, paging.page, paging.limit, undefined)
        if (problem) return problem
        const entries = (body as { data: Array<{ account: string | null; key: string | null }> }).data
        if (account !== null && entries.some((e) => e.account !== account))
          return 'journal filter by account leaked another account'
        if (entries.some((e) => e.key !== null && KEYS.has(e.key))) return 'journal shows an unmasked key'
        return undefined
      },
    }
  })
}

const RESET_SCOPES = ['subscribers', 'messages', 'limits', 'faults', 'journal', 'opt_outs', 'webhooks']

function resetCases(): fc.Arbitrary<FuzzCase> {
  const scopeValue = fc.oneof(
    fc.constantFrom(...RESET_SCOPES, 'all', 'ALL', 'Subscribers', '', 'messages,faults', '__proto__'),
    weirdString,
  )
  return fc
    .tuple(
      queryString(fc.array(fc.tuple(fc.constantFrom('scope', 'scope', 'foo'), scopeValue), { maxLength: 3 })),
      fc.option(chaosBody, { nil: undefined }),
      fc.option(contentType, { nil: undefined }),
    )
    .map(([query, body, type]): FuzzCase => {
      const path = `/__sandbox/reset${query}`
      const scope = new URL(ORIGIN + path).searchParams.get('scope')
      const headers: Array<[string, string]> = type === undefined ? [] : [['content-type', type]]
      return {
        request: { method: 'POST', path, headers, body },
        expect:
          scope === null || RESET_SCOPES.includes(scope)
            ? { kind: 'exact', status: [200] }
            : bad('invalid_parameter', { exact: 'scope' }),
        label: 'reset',
        check200: (answer) =>
          JSON.stringify(answer) === JSON.stringify({ ok: true, scope: scope ?? 'all' })
            ? undefined
            : `reset answered ${JSON.stringify(answer)}`,
      }
    })
}

function messageGetCases(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  const existing =
    context.messageIds.length > 0 ? [fc.constantFrom(...context.messageIds).map((id) => ({ id, exists: true }))] : []
  return fc
    .oneof(
      ...existing,
      idSegment.filter((id) => !context.messageIds.includes(id)).map((id) => ({ id, exists: false })),
    )
    .map(({ id, exists }): FuzzCase => ({
      request: { method: 'GET', path: `/__sandbox/messages/${id}`, headers: [] },
      expect: exists ? { kind: 'exact', status: [200] } : NOT_FOUND,
      label: exists ? 'message-existing' : 'message-unknown',
      check200: (body) =>
        (body as { message_id?: string }).message_id === id ? undefined : 'answered another message',
    }))
}

/** `POST /__sandbox/inbound`: replies from valid or hostile numbers, to known or unknown keys and accounts. */
function inboundCases(): fc.Arbitrary<FuzzCase> {
  const channel = fc.constantFrom(...CHANNELS, 'SMS')
  const who = fc.oneof(
    fc.constantFrom<[string, string]>(['key', 'test_pro'], ['key', 'nope'], ['account', 'acct_nope']),
    fc.tuple(fc.constant('key'), weirdString),
  )
  const from = fc.oneof(validPhone, fc.constantFrom(...PHONE_EDGES))
  const text = fc.oneof(fc.constantFrom('STOP', ' stop ', 'START', 'HELP', 'Yes', ''), weirdString)
  return fc.tuple(channel, who, from, text).map(([ch, [field, value], number, reply]): FuzzCase => {
    const body = JSON.stringify({ channel: ch, [field]: value, from: number, text: reply })
    const ok =
      (INBOUND_CHANNELS as readonly string[]).includes(ch) &&
      /^\+[0-9]{8,15}$/.test(number) &&
      reply.length > 0 &&
      reply.length <= 4096
    const known = field === 'key' && value === 'test_pro'
    return {
      request: { method: 'POST', path: '/__sandbox/inbound', headers: [['content-type', 'application/json']], body },
      expect: ok && known ? { kind: 'exact', status: [200] } : { kind: 'exact', status: [400] },
      label: ok ? (known ? 'inbound-ok' : 'inbound-unknown-account') : 'inbound-bad',
      check200: (answer) =>
        (answer as { message?: { direction?: string } }).message?.direction === 'inbound'
          ? undefined
          : 'the reply was not captured as inbound',
    }
  })
}

/** `POST /__sandbox/webhooks/{id}/replay` of attempts that do not exist: 404. */
function replayCases(): fc.Arbitrary<FuzzCase> {
  return idSegment.map((id): FuzzCase => ({
    request: { method: 'POST', path: `/__sandbox/webhooks/${id}/replay`, headers: [] },
    expect: NOT_FOUND,
    label: 'replay-unknown',
  }))
}

/** A route's path as a pattern: `{id}` is any segment; case and a trailing slash are let through (the fuzz expects `any` there). */
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}\\/?$`, 'i')
/** Known routes (method, normalised path), read off the route table: anything else under /v1 is 404 once authenticated. */
const API_ROUTES: Array<[string, RegExp]> = ROUTES.filter((route) => route.scope === 'api').map((route) => [
  route.method,
  patternOf(`/v1${route.path}`),
])
/** Control paths (any method: a wrong one is answered by the route's own guard, not always 404). */
const CONTROL_ROUTES: RegExp[] = ROUTES.filter((route) => route.scope === 'sandbox').map((route) =>
  patternOf(route.path),
)

const pathSegment = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'v1',
      'email',
      'sms',
      'whatsapp',
      'send',
      'subscribers',
      '__sandbox',
      'messages',
      'faults',
      'reset',
      'health',
      'requests',
      '..',
      '.',
      '%2e%2e',
      '%2F',
      '',
      'SEND',
      'Subscribers',
      'openapi.json',
      '%00',
      '%',
    ),
  },
  { weight: 2, arbitrary: weirdString.map((s) => encodeURIComponent(wellFormed(s))) },
)

function catchAllCases(): fc.Arbitrary<FuzzCase> {
  return fc
    .tuple(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      fc.constantFrom('/v1', '/__sandbox'),
      fc.array(pathSegment, { maxLength: 5 }),
      headerChoice,
      fc.option(chaosBody, { nil: undefined }),
    )
    .map(([method, root, segments, headers, body]): FuzzCase => {
      const raw = `${root}/${segments.join('/')}`
      const pathname = new URL(ORIGIN + raw).pathname
      const withBody = method !== 'GET' && body !== undefined
      const request: FuzzRequest = {
        method,
        path: raw,
        headers: headerList(headers, withBody),
        body: withBody ? body : undefined,
      }
      let expect: Expectation
      // `<baseUrl>/__sandbox` is this sandbox's controls (issue 14: several sandboxes on one origin).
      const control = pathname.startsWith('/__sandbox/')
        ? pathname
        : pathname === '/v1/__sandbox' || pathname.startsWith('/v1/__sandbox/')
          ? pathname.slice(3)
          : undefined
      if (control !== undefined) {
        expect = CONTROL_ROUTES.some((re) => re.test(control)) ? { kind: 'any' } : NOT_FOUND
      } else if (pathname.startsWith('/v1/') || pathname === '/v1') {
        const routed = API_ROUTES.some(([m, re]) => m === method && re.test(pathname))
        expect = routed ? { kind: 'any' } : compose(headers.authorization, headers.prefer, () => NOT_FOUND)
      } else {
        // Normalised out of both trees (`/v1/..`): only reachable over HTTP; in-process msw has no handler.
        expect = { kind: 'any' }
      }
      return { request, expect, label: `catch-all ${method}` }
    })
    .filter((c) => {
      const pathname = new URL(ORIGIN + c.request.path).pathname
      return pathname.startsWith('/v1') || pathname.startsWith('/__sandbox/')
    })
}

const ADMIN_TOKEN = 'adm_fuzz_token_7'

function adminCases(): fc.Arbitrary<FuzzCase> {
  const tokenValue = fc.oneof(
    fc.constantFrom(
      ADMIN_TOKEN,
      `${ADMIN_TOKEN}x`,
      ADMIN_TOKEN.toUpperCase(),
      ADMIN_TOKEN.slice(0, -1),
      'test_pro',
      '',
    ),
    headerText,
  )
  const auth = fc.oneof(
    fc.constant(undefined),
    tokenValue.map((t) => `Bearer ${t}`),
    fc.constantFrom(`bearer ${ADMIN_TOKEN}`, `Basic ${ADMIN_TOKEN}`, ADMIN_TOKEN, `Bearer  ${ADMIN_TOKEN} `),
    headerText,
  )
  const xToken = fc.option(tokenValue, { nil: undefined, freq: 3 })
  return fc
    .tuple(
      fc.constantFrom(
        '/__sandbox/health',
        '/__sandbox/messages',
        '/__sandbox/requests',
        '/__sandbox/faults',
        '/__sandbox/nothing',
      ),
      auth,
      xToken,
    )
    .map(([path, authValue, x]): FuzzCase => {
      const headers: Array<[string, string]> = []
      if (authValue !== undefined) headers.push(['authorization', authValue])
      if (x !== undefined) headers.push(['x-sendbox-admin-token', x])
      const bearer = /^bearer[ \t]+(\S+)/i.exec(httpTrim(authValue ?? ''))?.[1]
      const given = x !== undefined ? httpTrim(x) : bearer
      const admitted = given === ADMIN_TOKEN
      return {
        request: { method: 'GET', path, headers },
        expect: !admitted
          ? { kind: 'exact', status: [401], code: ['unauthorized'] }
          : path.endsWith('nothing')
            ? NOT_FOUND
            : { kind: 'exact', status: [200] },
        label: admitted ? 'admin-ok' : 'admin-refused',
      }
    })
}

// ---------------------------------------------------------------------------------------------
// Setup

async function seed(wire: Wire, subscribers: number, messages: number): Promise<FuzzContext> {
  const headers: Array<[string, string]> = [
    ['authorization', 'Bearer test_pro'],
    ['content-type', 'application/json'],
  ]
  const subscriberIds: string[] = []
  for (let i = 0; i < subscribers; i++) {
    const answer = await wire.send({
      method: 'POST',
      path: '/v1/subscribers',
      headers,
      body: JSON.stringify({
        email: `seed${i}@example.com`,
        phone: `+1415555${String(1000 + i)}`,
        first_name: `Seed ${i}`,
        tags: ['seed'],
      }),
    })
    subscriberIds.push((JSON.parse(answer.text) as { id: string }).id)
  }
  const messageIds: string[] = []
  const keys = ['test_pro', 'test_starter', 'test_enterprise']
  for (let i = 0; i < messages; i++) {
    const key = keys[i % keys.length]
    const sendHeaders: Array<[string, string]> = [
      ['authorization', `Bearer ${key}`],
      ['content-type', 'application/json'],
    ]
    const kind = i % 4
    const request: FuzzRequest =
      kind === 0
        ? {
            method: 'POST',
            path: '/v1/email/send',
            headers: sendHeaders,
            body: JSON.stringify({
              to: i % 8 === 0 ? 'ANA@example.com' : `user${i}@example.com`,
              subject: `S${i}`,
              html: '<p>x</p>',
            }),
          }
        : kind === 1
          ? {
              method: 'POST',
              path: '/v1/sms/send',
              headers: sendHeaders,
              body: JSON.stringify({ to: '+14155550123', message: `m${i}` }),
            }
          : kind === 2
            ? {
                method: 'POST',
                path: '/v1/whatsapp/send',
                headers: sendHeaders,
                body: JSON.stringify({ to: '+14155550124', template: 'order_update', language: 'en' }),
              }
            : {
                method: 'POST',
                path: '/v1/sms/send',
                headers: sendHeaders,
                body: JSON.stringify({ to: '+15005550001', message: 'fails later' }),
              }
    const answer = await wire.send(request)
    messageIds.push((JSON.parse(answer.text) as { message_id: string }).message_id)
  }
  return { subscriberIds, subscriberTotal: subscribers, messageIds, messageTotal: messages }
}

async function clearFaults(wire: Wire): Promise<void> {
  if (wire.sandbox.faults.size > 0) wire.sandbox.faults.clear()
}

/** The endpoints with hand-written cases and oracles, in a stable order. */
export const HAND_WRITTEN: EndpointFuzz[] = [
  {
    name: 'POST /v1/email/send',
    cases: bodyEndpoint({ method: 'POST', def: emailDef, path: fixed('/v1/email/send') }),
  },
  { name: 'POST /v1/sms/send', cases: bodyEndpoint({ method: 'POST', def: smsDef, path: fixed('/v1/sms/send') }) },
  {
    name: 'POST /v1/whatsapp/send',
    cases: bodyEndpoint({ method: 'POST', def: whatsappDef, path: fixed('/v1/whatsapp/send') }),
  },
  {
    name: 'POST /v1/subscribers',
    cases: bodyEndpoint({ method: 'POST', def: createDef, path: fixed('/v1/subscribers') }),
  },
  {
    name: 'PUT /v1/subscribers/{id}',
    setup: (wire) => seed(wire, 5, 0),
    cases: bodyEndpoint({ method: 'PUT', def: updateDef, path: (context) => subscriberPath(context, true) }),
  },
  { name: 'GET /v1/subscribers/{id}', setup: (wire) => seed(wire, 5, 0), cases: getCases },
  { name: 'GET /v1/subscribers', setup: (wire) => seed(wire, 47, 0), cases: listCases },
  {
    name: 'POST /__sandbox/faults',
    cases: bodyEndpoint({ method: 'POST', def: faultDef, path: fixed('/__sandbox/faults'), control: true }),
    after: clearFaults,
  },
  {
    name: 'GET /__sandbox/messages',
    setup: async (wire) => ({ ...(await seed(wire, 0, 41)), messages: wire.sandbox.outbox.list() }),
    cases: messagesListCases,
  },
  { name: 'GET /__sandbox/messages/{id}', setup: (wire) => seed(wire, 0, 9), cases: messageGetCases },
  { name: 'GET /__sandbox/requests', setup: (wire) => seed(wire, 3, 6), cases: requestsListCases },
  { name: 'POST /__sandbox/reset', setup: (wire) => seed(wire, 3, 3), cases: resetCases },
  { name: 'POST /__sandbox/inbound', cases: inboundCases },
  { name: 'POST /__sandbox/webhooks/{id}/replay', cases: replayCases },
  { name: '/__sandbox admin token', options: { adminToken: ADMIN_TOKEN }, cases: adminCases },
  { name: 'unknown paths and methods', cases: catchAllCases, after: clearFaults },
]

/**
 * Every fuzzed endpoint: the hand-written ones, then every other route of the table that takes
 * input and answers JSON or nothing, fuzzed from its schemas (`schema-fuzz.ts`), unless
 * `NOT_FUZZED` says why not.
 */
export const ENDPOINTS: EndpointFuzz[] = [
  ...HAND_WRITTEN,
  ...ROUTES.filter(
    (route) =>
      takesInput(route) &&
      judgedGenerically(route) &&
      NOT_FUZZED[fuzzName(route)] === undefined &&
      !HAND_WRITTEN.some((endpoint) => endpoint.name === fuzzName(route)),
  ).map((route) => schemaEndpoint(route, (wire) => seed(wire, 3, 4))),
]
