import { LATEST_TIME_MS } from '../contract/query.js'
import { ApiError } from './errors.js'

export { LATEST_TIME_MS }

/** Why `ms` is no time the sandbox can hold (0 = 1970-01-01 … {@link LATEST_TIME_MS}), or undefined. */
export function timeProblem(ms: unknown): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return `must be a number of Unix milliseconds (got ${String(ms)})`
  if (ms < 0 || ms > LATEST_TIME_MS)
    return `must be between 0 (1970-01-01) and ${LATEST_TIME_MS} (9999-12-31T23:59:59.999Z) in Unix milliseconds (got ${String(ms)})`
  return undefined
}

/** An ISO 8601 text for any number: the date when it is one, else the number itself (never throws). */
export function describeTime(ms: number): string {
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString()
}

/**
 * `new Date(ms).toISOString()`, remembered for the last millisecond asked: a request's journal
 * entry, its captured message and its status steps mostly fall in one millisecond, and V8 formats
 * each date through a printf (~1 % of an email send's CPU when each made its own).
 */
export function isoAt(ms: number): string {
  if (ms !== lastAt) {
    lastIso = new Date(ms).toISOString()
    lastAt = ms
  }
  return lastIso
}
let lastAt = Number.NaN
let lastIso = ''

/** What `GET /__sandbox/clock` answers. */
export interface ClockState {
  /** Sandbox time, ISO 8601 UTC. */
  now: string
  /** How far sandbox time is from the real clock, in milliseconds. */
  offset_ms: number
  frozen: boolean
  /** False when the sandbox was given its own `now` option: then that function rules and this clock cannot move. */
  controllable: boolean
}

/** A change `POST /__sandbox/clock` asks for. */
export interface ClockChange {
  advance_ms?: number
  freeze?: boolean
  reset?: true
}

/**
 * Sandbox time. By default it is the real clock read at each call (`Date.now()` at call time, so
 * `vi.useFakeTimers()` / `vi.setSystemTime()` after `createSandbox()` are seen), plus an offset
 * that `advance()` moves forward, and optionally frozen. When the user gave the sandbox its own
 * `now`, that function rules and every change throws, saying so.
 */
export class SandboxClock {
  private offset = 0
  private frozenAt: number | undefined
  private readonly listeners = new Set<() => void>()
  /** Bumped whenever sandbox time is moved by hand: what a persistence adapter watches. */
  version = 0

  /** What a store keeps: the offset from the real clock, and the frozen instant if frozen. */
  kept(): { offset: number; frozenAt: number | null } {
    return { offset: this.offset, frozenAt: this.frozenAt ?? null }
  }

  /** Puts back what {@link kept} returned in an earlier run (ignored when the sandbox has its own `now`). */
  restore(kept: { offset: number; frozenAt: number | null }): void {
    if (this.userNow || timeProblem(Date.now() + kept.offset) || (kept.frozenAt !== null && timeProblem(kept.frozenAt)))
      return
    this.offset = kept.offset
    this.frozenAt = kept.frozenAt ?? undefined
    this.moved()
  }

  constructor(private readonly userNow?: () => number) {}

  /** True unless the sandbox was given its own `now` option. */
  get controllable(): boolean {
    return this.userNow === undefined
  }

  /** Sandbox time in Unix milliseconds. */
  now = (): number => {
    if (this.userNow) return this.userNow()
    return this.frozenAt ?? Date.now() + this.offset
  }

  state(): ClockState {
    const now = this.now()
    return {
      now: new Date(now).toISOString(),
      offset_ms: this.userNow
        ? now - Date.now()
        : this.frozenAt === undefined
          ? this.offset
          : this.frozenAt - Date.now(),
      frozen: this.frozenAt !== undefined,
      controllable: this.controllable,
    }
  }

  /** Moves sandbox time forward: lifecycle steps come due (webhooks fire, in order), rate-limit windows slide. */
  advance(ms: number): ClockState {
    this.assertControllable('advance')
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new TypeError(`sandbox.clock.advance: ms must be a whole number of milliseconds ≥ 0 (got ${String(ms)}).`)
    const room = LATEST_TIME_MS - this.now()
    if (ms > room)
      throw new RangeError(
        `sandbox.clock.advance: ${ms} ms would move sandbox time past 9999-12-31T23:59:59.999Z; at most ${Math.max(room, 0)} ms from now.`,
      )
    if (this.frozenAt !== undefined) this.frozenAt += ms
    else this.offset += ms
    this.moved()
    return this.state()
  }

  /** Stops sandbox time (true) or lets it run again from where it stands (false). */
  freeze(frozen: boolean): ClockState {
    this.assertControllable('freeze')
    if (frozen && this.frozenAt === undefined) this.frozenAt = this.now()
    else if (!frozen && this.frozenAt !== undefined) {
      this.offset = this.frozenAt - Date.now()
      this.frozenAt = undefined
    }
    this.moved()
    return this.state()
  }

  /** Back to the real clock, running. */
  reset(): ClockState {
    this.assertControllable('reset')
    this.offset = 0
    this.frozenAt = undefined
    this.moved()
    return this.state()
  }

  /**
   * Applies a `POST /__sandbox/clock` body, in the order reset → freeze → advance. All or nothing:
   * an `advance_ms` past the latest time is a 400 and changes nothing (not even the freeze).
   */
  apply(change: ClockChange): ClockState {
    if (change.advance_ms !== undefined) {
      const base = change.reset ? Date.now() : this.now()
      if (change.advance_ms > LATEST_TIME_MS - base) {
        throw new ApiError(
          'invalid_parameter',
          `\`advance_ms\` would move sandbox time past 9999-12-31T23:59:59.999Z: give at most ${Math.max(LATEST_TIME_MS - base, 0)} ms.`,
          'advance_ms',
        )
      }
    }
    if (change.reset) this.reset()
    if (change.freeze !== undefined) this.freeze(change.freeze)
    if (change.advance_ms !== undefined) this.advance(change.advance_ms)
    return this.state()
  }

  /** Calls `listener` whenever sandbox time is moved by hand. */
  onMove(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  private moved(): void {
    this.version++
    for (const listener of this.listeners) listener()
  }

  private assertControllable(what: string): void {
    if (this.userNow) {
      throw new ClockNotControllableError(
        `sandbox.clock.${what}: this sandbox was created with its own \`now\` option, so that function rules sandbox time. Move your own clock instead, or create the sandbox without \`now\` to use sandbox.clock.`,
      )
    }
  }
}

/** The sandbox was given its own `now`: its clock cannot be moved through the sandbox. */
export class ClockNotControllableError extends Error {
  override readonly name = 'ClockNotControllableError'
}

const CLOCK_FIELDS = ['advance_ms', 'freeze', 'reset']

/** Checks a `POST /__sandbox/clock` body; a bad one is a 400 naming the field. */
export function parseClockBody(body: Record<string, unknown>): ClockChange {
  for (const key of Object.keys(body)) {
    if (!CLOCK_FIELDS.includes(key))
      throw new ApiError(
        'unknown_parameter',
        `Unknown parameter \`${key}\`. The clock takes advance_ms, freeze and reset.`,
        key,
      )
  }
  if (Object.keys(body).length === 0)
    throw new ApiError(
      'missing_parameter',
      'Send one of `advance_ms` (milliseconds to move forward), `freeze` (true or false) or `reset` (true).',
    )
  const change: ClockChange = {}
  if (body.advance_ms !== undefined) {
    const ms = body.advance_ms
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
      throw new ApiError(
        'invalid_parameter',
        '`advance_ms` must be a whole number of milliseconds ≥ 0 (time only moves forward; `reset` goes back to the real clock).',
        'advance_ms',
      )
    }
    change.advance_ms = ms
  }
  if (body.freeze !== undefined) {
    if (typeof body.freeze !== 'boolean')
      throw new ApiError('invalid_parameter', '`freeze` must be true or false.', 'freeze')
    change.freeze = body.freeze
  }
  if (body.reset !== undefined) {
    if (body.reset !== true)
      throw new ApiError(
        'invalid_parameter',
        '`reset` must be true (it puts the sandbox back on the real clock).',
        'reset',
      )
    change.reset = true
  }
  return change
}
