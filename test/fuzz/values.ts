/**
 * Value generators for the fuzzers: hostile strings, JSON texts of the wrong type, deep nesting,
 * prototype-pollution payloads, and valid values for every field of the API.
 */
import fc from 'fast-check'
import { MAGIC_RECIPIENTS } from '../../src/index.js'

/** Lone UTF-16 surrogates (not valid Unicode scalar values). */
export const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uD83D', '\uDE00b']

/** Strings that have broken parsers before. */
export const SPECIAL_STRINGS = [
  '',
  ' ',
  '\t',
  '\n',
  '\u0000',
  'a\u0000b',
  'e\u0301',
  `z${'\u0300\u0301\u0302'.repeat(30)}`,
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  '🙂',
  '👨‍👩‍👧‍👦',
  '🇫🇷',
  '\uFEFF',
  '\u200B',
  '\u00A0',
  'ﬀ',
  'İ',
  'ß',
  '0',
  '1',
  '-1',
  '1e3',
  '0x10',
  'NaN',
  'Infinity',
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '../../etc/passwd',
  '%00',
  '%2e%2e',
  '${jndi:ldap://127.0.0.1/a}',
  '\r\n',
  '\\',
  '"',
  "'",
  '`',
]

/** Single characters (or clusters) to repeat into long strings around the length limits. */
const REPEAT_UNITS = ['a', '🙂', 'é', 'e\u0301', '\u0000', '\uD800', 'ab']
const REPEAT_COUNTS = [
  1, 2, 7, 8, 11, 12, 15, 16, 64, 65, 253, 254, 255, 256, 257, 512, 513, 998, 999, 1600, 1601, 5_000,
]

/** Any string a client could send, weighted toward the nasty ones. */
export const weirdString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS, ...LONE_SURROGATES) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...REPEAT_UNITS), fc.constantFrom(...REPEAT_COUNTS))
      .map(([unit, n]) => unit.repeat(n)),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom(...SPECIAL_STRINGS, ...LONE_SURROGATES, 'a', '1'), { maxLength: 6 })
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true })).map(String) },
)

/** Keys for objects: ordinary, hostile and prototype-related. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '__defineGetter__',
      'firstName',
      'TO',
      ' to',
      'to ',
      'to\u0000',
      'e-mail',
      '',
      '0',
      'length',
    ),
  },
  { weight: 2, arbitrary: weirdString },
)

/** JSON texts that try to pollute prototypes when merged carelessly. */
export const POLLUTION_TEXTS = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
  '{"__proto__":{"__proto__":{"isAdmin":true}}}',
  '{"__proto__":[]}',
  '{"__proto__":null}',
  '{"__proto__":"x"}',
]

/** Serialises `[key, jsonText]` pairs into an object's JSON text, keeping `__proto__` an ordinary key. */
export function objectText(entries: ReadonlyArray<readonly [string, string]>): string {
  return `{${entries.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`
}

/** `[[[[…]]]]` or `{"k":{"k":…}}`, `depth` levels: built as text, no recursion on either side. */
export const deepText: fc.Arbitrary<string> = deepNesting(true)

/** Deep nesting as text; `objects: false` gives arrays only (for fields that must hold an object). */
export function deepNesting(objects: boolean): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.integer({ min: 2, max: 5_000 }) }, // depth 1 would be `[]`, a valid (empty) tag list
      { weight: 1, arbitrary: fc.constant(100_000) },
    )
    .chain((depth) =>
      objects
        ? fc.oneof(
            fc.constant(`${'['.repeat(depth)}${']'.repeat(depth)}`),
            fc
              .constantFrom('a', '__proto__', 'constructor', 'prototype', 'from', 'email')
              .map((key) => `${`{"${key}":`.repeat(depth)}{}${'}'.repeat(depth)}`),
          )
        : fc.constant(`${'['.repeat(depth)}${']'.repeat(depth)}`),
    )
}

const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '-0',
    '0.0',
    '1E-7',
    '123456789012345678901234567890',
    '0',
    '1',
    '-1',
    '500',
    '5e2',
  ),
)
const stringText: fc.Arbitrary<string> = weirdString.map((s) => JSON.stringify(s))
const boolText = fc.constantFrom('true', 'false')
const arrayText: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }).map((a) => JSON.stringify(a)),
  fc.constantFrom('[]', '["a@b.co"]', '["+14155550123"]', '["a@b.co","c@d.co"]', '[null]'),
)
const plainObjectText: fc.Arbitrary<string> = fc.oneof(
  fc
    .uniqueArray(
      fc.tuple(
        hostileKey,
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
      ),
      { selector: (e) => e[0], maxLength: 4 },
    )
    .map(objectText),
  fc.constantFrom(...POLLUTION_TEXTS, '{}'),
)

/** What a field holds, for picking values of the wrong type. */
export type FieldType = 'string' | 'object' | 'string-map' | 'string-array' | 'number'

/** JSON texts whose type is wrong for a field of `type` (null only when the field is not nullable). */
export function wrongTypeText(type: FieldType, nullable: boolean): fc.Arbitrary<string> {
  const options: Array<fc.Arbitrary<string>> = [boolText, deepNesting(type !== 'object')]
  if (!nullable) options.push(fc.constant('null'))
  if (type !== 'number') options.push(numberText)
  if (type !== 'string') options.push(stringText)
  if (type !== 'string-array') options.push(arrayText)
  if (type === 'string-array') {
    options.push(
      fc
        .array(fc.oneof(numberText, boolText, fc.constant('null'), plainObjectText, deepText, stringText), {
          minLength: 1,
          maxLength: 4,
        })
        .filter((items) => items.some((t) => !t.startsWith('"')))
        .map((items) => `[${items.join(',')}]`),
    )
  }
  if (type === 'string' || type === 'number' || type === 'string-array') options.push(plainObjectText)
  if (type === 'string-map') {
    // An object whose values are not all strings.
    options.push(
      fc
        .tuple(hostileKey, fc.oneof(numberText, boolText, fc.constant('null'), arrayText, plainObjectText))
        .map(([key, text]) => objectText([[key, text]])),
    )
  }
  return fc.oneof(...options)
}

const magic = new Set(MAGIC_RECIPIENTS.map((m) => m.recipient.toLowerCase()))

/** A valid email address that is not a magic recipient. */
export const validEmail: fc.Arbitrary<string> = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,16}$/),
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.stringMatching(/^[a-z]{2,6}$/),
    fc.boolean(),
  )
  .map(([local, domain, tld, upper]) => {
    const address = `${local}@${domain}.${tld}`
    return upper ? address.toUpperCase() : address
  })
  .filter((address) => !magic.has(address.toLowerCase()))

/** A valid E.164 number that is not a magic recipient. */
export const validPhone: fc.Arbitrary<string> = fc
  .stringMatching(/^\+[1-9][0-9]{7,14}$/)
  .filter((phone) => !magic.has(phone))

/** Replaces lone surrogates with U+FFFD, as a URL or a header would (encodeURIComponent throws on them). */
export function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}

/** Number of code points (what the contract's lengths count). */
export function codePoints(value: string): number {
  let count = 0
  for (const _ of value) count++
  return count
}

/** A string of `min..max` code points, drawn from everything Unicode has (lone surrogates included). */
export function validLengthString(min: number, max: number): fc.Arbitrary<string> {
  const cap = Math.min(max, 40)
  return fc
    .oneof(
      fc.string({ unit: 'binary', minLength: min, maxLength: cap }),
      fc.string({ minLength: min, maxLength: cap }),
      fc
        .array(fc.constantFrom(...LONE_SURROGATES, '🙂', 'e\u0301', '\u0000', '\u202E', 'a', ' '), {
          minLength: min,
          maxLength: cap,
        })
        .map((parts) => parts.join('')),
      // Exactly at the limit, with characters that are two UTF-16 units (the limit counts code points).
      fc.constantFrom('🙂', 'a').map((unit) => unit.repeat(Math.min(max, 5_000))),
    )
    .filter((s) => codePoints(s) >= min && codePoints(s) <= max)
}

/** An edge value of the right type and whether the contract accepts it (undefined: cannot tell cheaply). */
export interface Edge {
  text: string
  ok: boolean | undefined
  /** The param a rejection names, when it is not the field itself (nested fields). */
  param?: string
  /** The code a rejection carries, when it is not the field's. */
  code?: string
}

/** Edge strings judged by a rule. */
export function edgeString(
  rule: (s: string) => boolean | undefined,
  extra: readonly string[] = [],
): fc.Arbitrary<Edge> {
  const source =
    extra.length > 0
      ? fc.oneof({ weight: 3, arbitrary: weirdString }, { weight: 2, arbitrary: fc.constantFrom(...extra) })
      : weirdString
  return source.map((s) => ({ text: JSON.stringify(s), ok: rule(s) }))
}

/** Length rule in code points. */
export const lengthRule = (min: number, max: number) => (s: string) => codePoints(s) >= min && codePoints(s) <= max

/** What we can tell about an email cheaply: obviously broken, or "ask the server". */
export function emailRule(s: string): boolean | undefined {
  if (magic.has(s.toLowerCase())) return undefined
  if (!s.includes('@') || s.length > 254 || s.length < 3) return false
  return undefined
}

/** Addresses around the edges of what counts as an email address (and of its 254-character limit). */
export const EMAIL_EDGES = [
  'a@b',
  'a@b.c',
  'a@b.co',
  'ANA@EXAMPLE.COM',
  'ana@example.com ',
  ' ana@example.com',
  '"a"@b.co',
  'a@[127.0.0.1]',
  'a..b@c.co',
  'a@b..co',
  `${'a'.repeat(64)}@example.com`,
  `${'a'.repeat(65)}@example.com`,
  `${'a'.repeat(240)}@example.com`,
  `${'a'.repeat(250)}@example.com`,
  'ana@exämple.com',
  'änä@example.com',
  'ana@example.com\u0000',
  'a@b.co\n',
  'a@@b.co',
  '@b.co',
  'a@',
  'a@b.co,c@d.co',
  'a b@c.co',
]

const E164 = /^\+[0-9]{8,15}$/

/** Phone rule: exact (E.164), except magic numbers, which answer by the table. */
export function phoneRule(s: string): boolean | undefined {
  if (magic.has(s)) return undefined
  return E164.test(s)
}

/** Numbers around the edges of E.164 (length, separators, non-ASCII digits, whitespace). */
export const PHONE_EDGES = [
  '+1234567',
  '+12345678',
  '+123456789012345',
  '+1234567890123456',
  '14155550123',
  '+1 415 555 0123',
  '+1-415-555-0123',
  '+(415)5550123',
  '+１４１５５５５０１２３',
  '+٠١٢٣٤٥٦٧٨٩',
  '+14155550123\n',
  '+14155550123 ',
  ' +14155550123',
  '++14155550123',
  '+',
  '+0000000000',
]
