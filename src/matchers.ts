/**
 * Assertion matchers for vitest's and jest's `expect`:
 *
 * @example
 * import { expect } from 'vitest'            // or jest's global expect
 * import { matchers } from 'sendbox/matchers'
 * expect.extend(matchers)
 *
 * expect(sandbox).toHaveSent({ channel: 'sms', to: '+14155550123', text: /code is \d{6}/ })
 * expect(sandbox).toHaveSent({ channel: 'email', links: expect.arrayContaining([expect.stringMatching(/\/reset\?/)]) })
 * expect(sandbox).toHaveSentTimes({ channel: 'email', to: 'ana@example.com' }, 1)
 * expect(sandbox).toHaveSentNothing({ channel: 'whatsapp' })
 * await expect(sandbox.outbox.get(id)).toPassChecks({ severity: 'warning', ignore: ['compatibility'] })
 *
 * A filter takes the outbox's filter keys (channel, to, status, since, account, q, from,
 * subject, template) as plain values, and any field of a captured message (text, links, codes,
 * the channel's part such as email or sms, status, …) as a value, a RegExp (for strings) or an asymmetric matcher.
 * A failing matcher prints the filter and the nearest misses, never a dump of the outbox.
 *
 * Given a `sendbox/client` (a sandbox in another process) the matchers are asynchronous and wait
 * (default 5000 ms, `{ timeout }` as the last argument) for what they expect:
 * `await expect(client).toHaveSent({ channel: 'email', to })`. `.not` and `toHaveSentNothing`
 * look once, without waiting.
 */
import { CHANNEL_DESCRIPTORS } from './domain/channels/index.js'
import { compileFilter, describeFilter, FILTER_KEYS, type OutboxFilter } from './domain/outbox-filter.js'
import { describeMisses, type Outbox } from './domain/outbox.js'
import { capturedMessageSchema, type CapturedMessage } from './contract/captured-message.js'
import { CHANNELS, type Channel } from './contract/constants.js'
import { clientMissText, isClient, lookFor, type ClientMatchOptions } from './matchers-client.js'
import { toPassChecks, type PassChecksOptions } from './matchers-checks.js'

export type { ClientMatchOptions, PassChecksOptions }
export { toPassChecks }

/** A matcher filter: outbox filter keys, and message fields as values, RegExps or asymmetric matchers. */
export type SentFilter = { [K in keyof OutboxFilter]?: OutboxFilter[K] | RegExp | AsymmetricMatcherLike } & {
  [K in Exclude<MessageField, keyof OutboxFilter>]?: unknown
}
type MessageField = keyof CapturedMessage | Channel

interface AsymmetricMatcherLike {
  asymmetricMatch(other: unknown): boolean
}

/** What `this` is inside a matcher, in both vitest and jest (the part used here). */
interface MatcherContext {
  isNot?: boolean
  equals(a: unknown, b: unknown): boolean
  utils?: { printExpected?(value: unknown): string }
}

/** What both runners expect a matcher to return. */
interface MatcherResult {
  pass: boolean
  message: () => string
}

const MESSAGE_FIELDS = new Set<string>([...Object.keys(capturedMessageSchema.options[0].shape), ...CHANNELS])

function outboxOf(received: unknown): Outbox {
  const candidate = (received as { outbox?: unknown })?.outbox ?? received
  if (
    candidate &&
    typeof (candidate as Outbox).list === 'function' &&
    typeof (candidate as Outbox).nearMisses === 'function'
  )
    return candidate as Outbox
  throw new TypeError('sendbox matchers: expect() takes a sandbox (createSandbox()) or its outbox.')
}

function isPlainFilterValue(key: string, value: unknown): boolean {
  if (key === 'since') return typeof value === 'number'
  return typeof value === 'string'
}

/** Splits a matcher filter into the outbox filter (fast, indexed) and per-field checks. */
function compile(
  context: MatcherContext,
  filter: SentFilter,
  where: string,
): { outboxFilter: OutboxFilter; matches: (m: CapturedMessage) => boolean; shown: string; checksFields: boolean } {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter))
    throw new TypeError(`${where}: the filter must be an object, like { channel: 'sms', to: '+14155550123' }.`)
  const outboxFilter: Record<string, unknown> = {}
  const checks: Array<[string, unknown]> = []
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue
    const isFilterKey = (FILTER_KEYS as readonly string[]).includes(key)
    if (isFilterKey && isPlainFilterValue(key, value)) outboxFilter[key] = value
    else if (isFilterKey || MESSAGE_FIELDS.has(key)) checks.push([key, value])
    else
      throw new TypeError(
        `${where}: unknown filter key "${key}". Use ${FILTER_KEYS.join(', ')}, or a field of a captured message (${[...MESSAGE_FIELDS].join(', ')}).`,
      )
  }
  const base = compileFilter(outboxFilter as OutboxFilter)
  const fieldOf = (m: CapturedMessage, key: string): unknown => {
    if (key === 'from') return CHANNEL_DESCRIPTORS[m.channel].from(m as never)
    if (key === 'subject') return CHANNEL_DESCRIPTORS[m.channel].subject(m as never)
    if (key === 'template') return CHANNEL_DESCRIPTORS[m.channel].template(m as never)
    if (key === 'q') return m.text
    return (m as Record<string, unknown>)[key]
  }
  const matches = (m: CapturedMessage) =>
    base(m) &&
    checks.every(([key, expected]) => {
      const actual = fieldOf(m, key)
      if (expected instanceof RegExp)
        return typeof actual === 'string' && new RegExp(expected.source, expected.flags.replace('g', '')).test(actual)
      return context.equals(actual, expected)
    })
  const extra = checks.map(
    ([key, value]) => `${key} ${value instanceof RegExp ? String(value) : describeExpected(context, value)}`,
  )
  const shown = describeFilter(outboxFilter as OutboxFilter) + (extra.length > 0 ? ` with ${extra.join(', ')}` : '')
  return { outboxFilter: outboxFilter as OutboxFilter, matches, shown, checksFields: checks.length > 0 }
}

function describeExpected(context: MatcherContext, value: unknown): string {
  if (
    value &&
    typeof value === 'object' &&
    typeof (value as { toString?: unknown }).toString === 'function' &&
    'asymmetricMatch' in value
  ) {
    return String((value as { toString(): string }).toString())
  }
  try {
    return context.utils?.printExpected?.(value) ?? JSON.stringify(value)
  } catch {
    return String(value)
  }
}

function sent(received: unknown, context: MatcherContext, filter: SentFilter, where: string) {
  const outbox = outboxOf(received)
  const { outboxFilter, matches, shown } = compile(context, filter, where)
  const found = outbox.list().filter(matches)
  const misses = outbox.nearMisses(outboxFilter).filter((m) => !matches(m))
  return { found, shown, missText: describeMisses(outboxFilter, misses, outbox.size) }
}

/**
 * The client path of a matcher: looks (waiting unless told not to) until `done`, then builds the
 * result with `result(found, missText)`.
 */
async function sentByClient(
  received: unknown,
  context: MatcherContext,
  filter: SentFilter,
  where: string,
  look: { done: (found: CapturedMessage[]) => boolean; wait: boolean; options?: ClientMatchOptions },
  result: (found: CapturedMessage[], shown: string, missText: string) => MatcherResult,
): Promise<MatcherResult> {
  if (!isClient(received))
    throw new TypeError('sendbox matchers: expect() takes a sandbox, its outbox or a sendbox/client.')
  const compiled = compile(context, filter, where)
  const found = await lookFor(received, compiled, look.done, look.options, look.wait)
  return result(found, compiled.shown, look.done(found) ? '' : await clientMissText(received, compiled))
}

/** "an SMS", "an Email", "a message": the article of a channel's label. */
function article(shown: string): string {
  return /^(?:[aeiou]|SMS)/i.test(shown) ? 'an' : 'a'
}

function firstOf(found: readonly CapturedMessage[]): string {
  const m = found[0]
  return `${CHANNEL_DESCRIPTORS[m.channel].label} ${m.message_id} to ${m.to}`
}

/** The matchers: pass them to `expect.extend`. */
export const matchers = {
  /** Passes when at least one captured message matches the filter (a client: waits for one, `options.timeout`). */
  toHaveSent(
    this: MatcherContext,
    received: unknown,
    filter: SentFilter,
    options?: ClientMatchOptions,
  ): MatcherResult | Promise<MatcherResult> {
    const answer = (found: readonly CapturedMessage[], shown: string, missText: string): MatcherResult => ({
      pass: found.length > 0,
      message: () =>
        found.length > 0
          ? `expected no ${shown}, but ${found.length} ${found.length === 1 ? 'was' : 'were'} sent (newest: ${firstOf(found)})`
          : `expected ${article(shown)} ${shown} to have been sent; ${missText}`,
    })
    if (isClient(received))
      return sentByClient(
        received,
        this,
        filter,
        'toHaveSent',
        { done: (f) => f.length > 0, wait: !this.isNot, options },
        answer,
      )
    const { found, shown, missText } = sent(received, this, filter, 'toHaveSent')
    return answer(found, shown, missText)
  },
  /** Passes when exactly `times` captured messages match the filter (a client: waits for them, `options.timeout`). */
  toHaveSentTimes(
    this: MatcherContext,
    received: unknown,
    filter: SentFilter,
    times: number,
    options?: ClientMatchOptions,
  ): MatcherResult | Promise<MatcherResult> {
    if (!Number.isInteger(times) || times < 0)
      throw new TypeError(`toHaveSentTimes: times must be a whole number ≥ 0 (got ${String(times)}).`)
    const answer = (found: readonly CapturedMessage[], shown: string, missText: string): MatcherResult => ({
      pass: found.length === times,
      message: () =>
        this.isNot
          ? `expected ${shown} not to have been sent ${times} time${times === 1 ? '' : 's'}, but it was`
          : `expected ${times} × ${shown}, but found ${found.length}${found.length > 0 ? ` (newest: ${firstOf(found)})` : ''}; ${missText}`,
    })
    if (isClient(received))
      return sentByClient(
        received,
        this,
        filter,
        'toHaveSentTimes',
        { done: (f) => f.length >= times, wait: !this.isNot, options },
        answer,
      )
    const { found, shown, missText } = sent(received, this, filter, 'toHaveSentTimes')
    return answer(found, shown, missText)
  },
  /** Passes when no captured message matches the filter (or none at all without a filter). A client: looks once. */
  toHaveSentNothing(
    this: MatcherContext,
    received: unknown,
    filter: SentFilter = {},
    options?: ClientMatchOptions,
  ): MatcherResult | Promise<MatcherResult> {
    const answer = (found: readonly CapturedMessage[], shown: string): MatcherResult => ({
      pass: found.length === 0,
      message: () =>
        found.length === 0
          ? `expected some ${shown} to have been sent, but none was`
          : `expected no ${shown}, but ${found.length} ${found.length === 1 ? 'was' : 'were'} sent (newest: ${firstOf(found)})`,
    })
    if (isClient(received))
      return sentByClient(
        received,
        this,
        filter,
        'toHaveSentNothing',
        { done: (f) => f.length > 0, wait: this.isNot === true, options },
        answer,
      )
    const { found, shown } = sent(received, this, filter, 'toHaveSentNothing')
    return answer(found, shown)
  },
  /**
   * Passes when no check at or above `severity` (default `error`) remains, `ignore`d rule ids and
   * categories aside. Takes a captured message or its check report; always asynchronous: `await` it.
   */
  toPassChecks,
}

/**
 * The matchers' signatures. `R` is what a call returns: `void` for the synchronous matchers (a
 * vitest or jest assertion returns nothing), `Promise<void>` where the runner promisifies
 * (`.resolves`).
 */
export interface SendboxMatchers<R = void> {
  /** At least one captured message matches `filter`. Given a `sendbox/client`: `await` it; it waits up to `options.timeout` (5000 ms). */
  toHaveSent(filter: SentFilter, options?: ClientMatchOptions): R
  /** Exactly `times` captured messages match `filter`. Given a `sendbox/client`: `await` it; it waits up to `options.timeout`. */
  toHaveSentTimes(filter: SentFilter, times: number, options?: ClientMatchOptions): R
  /** No captured message matches `filter` (none at all without one). Given a `sendbox/client`: `await` it. */
  toHaveSentNothing(filter?: SentFilter, options?: ClientMatchOptions): R
  /** No check at or above `severity` (default `'error'`) remains, `ignore` aside. Asynchronous: `await expect(message).toPassChecks()`. */
  toPassChecks(options?: PassChecksOptions): Promise<void>
}

/*
 * Where the signatures go, for each runner's `expect` (docs/decisions/matcher-types.md). None of
 * these imports a runner, so a project with only one of them installed type-checks with
 * `skipLibCheck: false`:
 * - vitest 4 and 5: their `Assertion` copies every method of chai's `Chai.Assertion` (a mapped
 *   type), so a method added there is a method of `expect(x)` in both majors — whereas vitest's
 *   own `Assertion`/`Matchers` interfaces changed their type parameters between 4 and 5, and
 *   an augmentation can only match one of them (TS2428).
 * - jest's global `expect` (@types/jest): the global `jest.Matchers`.
 * - `expect` from `@jest/globals` (jest 30's `expect` package): its `Matchers`, augmented in
 *   src/matchers-expect.d.ts, which the build copies beside this file's declarations and
 *   references from them (in a .ts file TypeScript refuses to augment a module it cannot
 *   resolve from here; in a declaration file an absent `expect` is simply never merged).
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Chai {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Assertion extends SendboxMatchers<void> {}
  }
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
    interface Matchers<R, T = {}> extends SendboxMatchers<R> {}
  }
}

export default matchers
