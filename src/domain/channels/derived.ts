/**
 * An email's `text`, `links` and `codes`, derived once, on first read rather than at capture:
 * most captured emails are never read (a bulk test, a load run), and deriving them was a fifth of
 * an email send's CPU. See docs/decisions/channels-and-derived-fields.md.
 *
 * The three fields are enumerable own accessors, so JSON, object spread, structuredClone and
 * test matchers see plain values; they share one getter per field (V8 keeps one hidden class for
 * every message) and look up the message's {@link Derivation}, which computes them together
 * once; an email's links and images read first are derived alone (one parse, no text layout), and
 * the rest joins them on a later read. A message copied by the outbox (a status step) shares its
 * original's derivation.
 * Large HTML is derived at capture, as before: a page of a hundred hostile emails listed at once
 * must not pay a hundred derivations in one request.
 */

/** What is derived from a message's content. */
export interface Derived {
  text: string
  links: string[]
  images: string[]
  codes: string[]
}

/** The links and images alone: what most email tests read (a magic link), without the text's layout. */
export type DerivedLinks = Pick<Derived, 'links' | 'images'>

/**
 * What derives a message's fields: all of them at once, and optionally the links and images
 * alone, cheaper (an email's links are one parse of its HTML; its text is html-to-text's layout
 * besides). Both must give the same links for the same input: once the links were read alone, the
 * full derivation keeps those very lists.
 */
export type Deriver<I> = ((input: I) => Derived) & { links?: (input: I) => DerivedLinks }

/** HTML longer than this (UTF-16 units) is derived at capture; shorter, on first read. */
export const LAZY_DERIVE_LIMIT = 4 * 1024

class Derivation<I = unknown> {
  private value: Derived | undefined
  /** The links and images, when they were read before anything else (the deriver has a `links`). */
  private linksPart: DerivedLinks | undefined
  /** Set once a derived field of any message sharing this derivation was assigned (then copies look closer). */
  overwritten = false
  /**
   * `compute` is applied to `input` on first read, then both are dropped. A message that is never
   * read keeps a shared function and an input it holds anyway (an email's `email` object) rather
   * than a closure over the request (~120 bytes a message: closure, context and request body).
   */
  constructor(
    private compute: Deriver<I> | undefined,
    private input: I | undefined,
  ) {}

  get(): Derived {
    if (this.value === undefined) {
      let value: Derived
      try {
        value = this.compute!(this.input as I)
      } catch {
        // The extractors do not throw (they fall back to plainer renderings); if one ever did, a
        // read of one message must not fail every list and wait that meets it, again and again.
        value = { text: '', links: [], images: [], codes: [] }
      }
      // Lists already handed out stay the message's lists.
      if (this.linksPart !== undefined) value = { ...value, ...this.linksPart }
      this.value = value
      this.compute = undefined
      this.input = undefined
      this.linksPart = undefined
    }
    return this.value
  }

  /** One field: the links and images alone when nothing else was derived yet and the deriver can. */
  read(field: Field): unknown {
    if (this.value === undefined && (field === 'links' || field === 'images') && this.compute?.links !== undefined) {
      if (this.linksPart === undefined) {
        try {
          this.linksPart = this.compute.links(this.input as I)
        } catch {
          return this.get()[field]
        }
      }
      return this.linksPart[field]
    }
    return this.get()[field]
  }

  get done(): boolean {
    return this.value !== undefined
  }
}

/**
 * Where a message keeps its derivation: a non-enumerable symbol property, which JSON, spread,
 * structuredClone, `Object.keys` and test matchers skip (a WeakMap did the same at ~3 % of an
 * email send's CPU, and its ephemerons cost every garbage collection).
 */
const DERIVATION = Symbol('sendbox.derivation')
const FIELDS = ['text', 'links', 'images', 'codes'] as const
/** Whether `name` is a derived field's: compared by identity (property names are interned), not a Set lookup per field of every copy. */
const isField = (name: string): name is Field =>
  name === FIELDS[0] || name === FIELDS[1] || name === FIELDS[2] || name === FIELDS[3]
// isField names four: a fifth derived field fails to compile here until it is named there too.
const FOUR_FIELDS: (typeof FIELDS)['length'] extends 4 ? true : never = true
void FOUR_FIELDS
type Field = (typeof FIELDS)[number]

function derivationOf(target: object): Derivation | undefined {
  return (target as { [DERIVATION]?: Derivation })[DERIVATION]
}

/** Replaces the accessor by a plain value: assigning a derived field is allowed, as on a plain object. */
function overwrite(target: object, field: Field, value: unknown): void {
  derivationOf(target)!.overwritten = true
  Object.defineProperty(target, field, { value, writable: true, enumerable: true, configurable: true })
}

/** One accessor pair per field, shared by every message (so V8 gives them all one hidden class). */
const ACCESSORS = Object.fromEntries(
  FIELDS.map((field): [Field, PropertyDescriptor] => [
    field,
    {
      get(this: object) {
        return derivationOf(this)!.read(field)
      },
      set(this: object, value: unknown) {
        overwrite(this, field, value)
      },
      enumerable: true,
      configurable: true,
    },
  ]),
) as Record<Field, PropertyDescriptor>

// console.log / util.inspect would print `[Getter/Setter]` for the accessors: show the values.
const INSPECT = Symbol.for('nodejs.util.inspect.custom')
function inspectPlain(
  this: Record<string, unknown>,
  _depth: number,
  options: object,
  inspect: (value: unknown, options: object) => string,
): string {
  const plain: Record<string, unknown> = {}
  for (const name of Object.keys(this)) plain[name] = this[name]
  return inspect(plain, options)
}
const INSPECT_DESCRIPTOR: PropertyDescriptor = {
  value: inspectPlain,
  enumerable: false,
  configurable: true,
  writable: true,
}

/**
 * Adds `text`, `links` and `codes` to `target` (at this point of its field order), computed by
 * `compute(input)` on first read; at once when `eager`.
 */
export function defineDerived<I>(target: object, compute: Deriver<I>, input: I, eager = false): void {
  const derivation = new Derivation(compute, input)
  if (eager) derivation.get()
  attach(target, derivation)
  for (const field of FIELDS) Object.defineProperty(target, field, ACCESSORS[field])
}

/** Reused for every message (its `value` set just before each use): no descriptor object per message. */
const DERIVATION_DESCRIPTOR: PropertyDescriptor = {
  value: undefined,
  enumerable: false,
  configurable: true,
  writable: false,
}

function attach<I>(target: object, derivation: Derivation<I>): void {
  // Two defineProperty calls with shared descriptors: an `Object.defineProperties` with a fresh
  // literal of symbol keys was ~3 % of an email send's CPU.
  Object.defineProperty(target, INSPECT, INSPECT_DESCRIPTOR)
  DERIVATION_DESCRIPTOR.value = derivation
  Object.defineProperty(target, DERIVATION, DERIVATION_DESCRIPTOR)
  DERIVATION_DESCRIPTOR.value = undefined
}

/**
 * A shallow copy of `source`'s own fields, in their order: derived fields still
 * underived stay so (the copy shares the derivation); everything else is copied by value.
 */
export function copyFields<T>(source: object): T {
  const copy: Record<string, unknown> = {}
  const derivation = derivationOf(source)
  // Until a derived field is assigned somewhere, every message of this derivation still has all three accessors.
  const allAccessors = derivation !== undefined && !derivation.overwritten
  for (const name of Object.keys(source)) {
    if (derivation !== undefined && isField(name) && (allAccessors || isAccessor(source, name)))
      Object.defineProperty(copy, name, ACCESSORS[name as Field])
    else copy[name] = (source as Record<string, unknown>)[name]
  }
  if (derivation !== undefined) attach(copy, derivation)
  return copy as T
}

function isAccessor(source: object, name: string): boolean {
  return Object.getOwnPropertyDescriptor(source, name)?.get !== undefined
}

/** Whether `message`'s derived fields are still to be computed (what the outbox's weight estimates). */
export function underived(message: object): boolean {
  const derivation = derivationOf(message)
  return derivation !== undefined && !derivation.done
}

/**
 * A message's JSON for a store, without computing what is still underived: each such field is
 * written as `null` (never a derived value: those are a string or lists), and
 * {@link reviveDerived} defines it again, lazily and in its place, when the store is read.
 */
export function storedJson(message: object): string {
  if (!underived(message)) return JSON.stringify(message)
  const plain: Record<string, unknown> = {}
  for (const name of Object.keys(message))
    plain[name] = isField(name) && isAccessor(message, name) ? null : (message as Record<string, unknown>)[name]
  return JSON.stringify(plain)
}

/**
 * {@link storedJson} of a derived message (or one with nothing to derive), field by field in steps:
 * a step after each large field, so a store can make a 1 MiB email's ~3 MiB of JSON over a few
 * turns of the event loop rather than in one. The same text as `JSON.stringify(message)`; built by
 * concatenation (V8 keeps it a rope until it is written out).
 */
export function* storedJsonSteps(message: object): Generator<void, string, void> {
  let json = '{'
  let first = true
  for (const name of Object.keys(message)) {
    const part = JSON.stringify((message as Record<string, unknown>)[name]) as string | undefined
    if (part === undefined) continue
    json += `${first ? '' : ','}${JSON.stringify(name)}:${part}`
    first = false
    if (part.length > STEP_CHARS) yield
  }
  return `${json}}`
}
const STEP_CHARS = 64 * 1024

/**
 * A message read back from a store with its lazily derived fields again (those {@link storedJson}
 * wrote as null): a fresh object built field by field, in order, as {@link copyFields} builds one
 * (redefining the parsed object's fields as accessors cost V8 a slow object per message).
 */
export function reviveDerived<T extends Record<string, unknown>, I>(message: T, compute: Deriver<I>, input: I): T {
  if (message.text !== null && message.links !== null && message.codes !== null && message.images !== null)
    return message
  const copy: Record<string, unknown> = {}
  for (const name of Object.keys(message)) {
    if (isField(name) && message[name] === null) Object.defineProperty(copy, name, ACCESSORS[name as Field])
    else copy[name] = message[name]
  }
  attach(copy, new Derivation(compute, input))
  return copy as T
}
