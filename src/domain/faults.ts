import { z } from 'zod'
import { FAULT_CODE_PATTERN } from '../contract/error.js'
import { ApiError, isForceableStatus } from './errors.js'

/** Faults armed at once, at most: each request looks at the faults of its path and those of every path. */
export const MAX_FAULTS = 1_000

/** Longest `path` a fault may name (and `code`, whose pattern already stops at 64 characters). */
export const MAX_FAULT_TEXT = 1024

/** A fault spec as `POST /__sandbox/faults` and `sandbox.faults.add()` take it. */
export const faultSpecSchema = z
  .strictObject({
    status: z
      .number()
      .int()
      .refine(isForceableStatus, {
        error: '`status` must be 400, 401, 404, 429 or a 5xx status.',
      })
      .meta({ enum: [400, 401, 404, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)] }),
    code: z
      .string()
      .max(MAX_FAULT_TEXT, { error: `\`code\` may be at most ${MAX_FAULT_TEXT} characters long.`, abort: true })
      .regex(FAULT_CODE_PATTERN, { error: '`code` must be a snake_case error code, like service_unavailable.' })
      .optional(),
    path: z
      .string()
      .max(MAX_FAULT_TEXT, { error: `\`path\` may be at most ${MAX_FAULT_TEXT} characters long.`, abort: true })
      .startsWith('/', { error: '`path` must be a request path starting with "/", like /v1/sms/send.' })
      .optional(),
    method: z
      .string()
      .transform((m) => m.toUpperCase())
      .pipe(
        z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], {
          error: '`method` must be GET, POST, PUT, DELETE or PATCH.',
        }),
      )
      // The document's form of the same rule (any case, as the transform above accepts).
      .meta({
        pattern: '^(?:[Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Pp][Uu][Tt]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Pp][Aa][Tt][Cc][Hh])$',
      })
      .optional(),
    times: z
      .number()
      .int()
      .min(1, { error: '`times` must be a whole number from 1 to 1000000000.' })
      .max(1_000_000_000, { error: '`times` must be a whole number from 1 to 1000000000.' })
      .optional(),
    probability: z.number().min(0).max(1, { error: '`probability` must be between 0 and 1.' }).optional(),
    delay_ms: z.number().int().min(0).max(60_000, { error: '`delay_ms` must be 0 to 60000.' }).optional(),
    account: z
      .string()
      .min(1, { error: '`account` must name an account (GET /__sandbox/keys lists them).' })
      .max(MAX_FAULT_TEXT, { error: `\`account\` may be at most ${MAX_FAULT_TEXT} characters long.`, abort: true })
      .optional()
      .meta({
        description:
          "Only requests made with a key of this account (default: every account). A team token's faults always name one of its accounts.",
      }),
  })
  .meta({ id: 'FaultSpec' })

export type FaultSpec = z.input<typeof faultSpecSchema>

/** A fault in force. */
export interface Fault {
  id: string
  status: number
  code: string | null
  path: string | null
  method: string | null
  /** Answers left before it expires; null = until cleared. */
  remaining: number | null
  probability: number
  delay_ms: number
  /** Requests it has answered so far. */
  hits: number
  /** Only requests of this account's keys; null = every account. */
  account: string | null
}

/**
 * Injected failures. Probabilities draw from a seeded source so runs repeat. At most
 * {@link MAX_FAULTS} are armed; faults for an exact path are indexed by it, so a request looks
 * only at the faults of its own path and those without one (200,000 faults once slowed every
 * request 30×, issue 11). The first fault armed wins, as in one list.
 */
export class Faults {
  /** Every armed fault, in the order armed (what `list()` shows). */
  private faults: Fault[] = []
  /** Faults with a `path`, by path, each list in the order armed. */
  private byPath = new Map<string, Fault[]>()
  /** Faults without a `path` (every path), in the order armed. */
  private anyPath: Fault[] = []
  /** Arming order of each fault, for merging the two candidate lists. */
  private order = new WeakMap<Fault, number>()
  private nextId = 1
  /** Bumped by every change (a fault armed, hit, expired or cleared): what a persistence adapter watches. */
  version = 0

  constructor(private readonly random: () => number) {}

  /** Puts back faults a store kept, in arming order (ids carry on after the highest). */
  restore(list: readonly Fault[]): void {
    for (const kept of list.slice(0, MAX_FAULTS)) {
      const fault = { ...kept, account: kept.account ?? null }
      const n = Number(/^flt_([0-9]+)$/.exec(fault.id)?.[1] ?? 0)
      this.nextId = Math.max(this.nextId, n + 1)
      this.order.set(fault, this.nextId++)
      this.faults.push(fault)
      if (fault.path === null) this.anyPath.push(fault)
      else this.byPath.set(fault.path, [...(this.byPath.get(fault.path) ?? []), fault])
    }
  }

  /**
   * Adds a fault; throws a ZodError on an invalid spec, and an {@link ApiError} (400
   * `invalid_parameter`) when {@link MAX_FAULTS} are armed already.
   */
  add(spec: FaultSpec): Fault {
    const parsed = faultSpecSchema.parse(spec)
    if (this.faults.length >= MAX_FAULTS) {
      throw new ApiError(
        'invalid_parameter',
        `${MAX_FAULTS} faults are armed already, the most the sandbox keeps. Clear them with DELETE /__sandbox/faults (or reset scope=faults) first.`,
      )
    }
    const fault: Fault = {
      id: `flt_${this.nextId}`,
      status: parsed.status,
      code: parsed.code ?? null,
      path: parsed.path ?? null,
      method: parsed.method ?? null,
      remaining: parsed.times ?? null,
      probability: parsed.probability ?? 1,
      delay_ms: parsed.delay_ms ?? 0,
      hits: 0,
      account: parsed.account ?? null,
    }
    this.order.set(fault, this.nextId++)
    this.faults.push(fault)
    this.version++
    if (fault.path === null) this.anyPath.push(fault)
    else {
      const list = this.byPath.get(fault.path)
      if (list) list.push(fault)
      else this.byPath.set(fault.path, [fault])
    }
    return { ...fault }
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }))
  }

  clear(): void {
    this.version++
    this.faults = []
    this.byPath.clear()
    this.anyPath = []
  }

  /** Clears the faults armed for these accounts (a team token's); those of every account stay. */
  clearAccounts(accounts: ReadonlySet<string>): void {
    this.version++
    for (const fault of this.faults.filter((f) => f.account !== null && accounts.has(f.account))) this.remove(fault)
  }

  get size(): number {
    return this.faults.length
  }

  /** The first fault (in arming order) that fires for this request (of `account`'s key), consuming one of its `times`. */
  match(method: string, path: string, account?: string): Fault | undefined {
    if (this.faults.length === 0) return undefined
    const exact = this.byPath.get(path)
    const any = this.anyPath
    // Merge the two lists by arming order: the same first match as one list scanned in order.
    let i = 0
    let j = 0
    const exactLength = exact?.length ?? 0
    while (i < exactLength || j < any.length) {
      const takeExact = j >= any.length || (i < exactLength && this.order.get(exact![i])! < this.order.get(any[j])!)
      const fault = takeExact ? exact![i++] : any[j++]
      if (fault.method !== null && fault.method !== method) continue
      if (fault.account !== null && fault.account !== account) continue
      if (fault.probability < 1 && this.random() >= fault.probability) continue
      fault.hits++
      this.version++
      if (fault.remaining !== null) {
        fault.remaining--
        if (fault.remaining === 0) this.remove(fault)
      }
      return { ...fault }
    }
    return undefined
  }

  private remove(fault: Fault): void {
    this.faults.splice(this.faults.indexOf(fault), 1)
    const list = fault.path === null ? this.anyPath : this.byPath.get(fault.path)!
    list.splice(list.indexOf(fault), 1)
    if (fault.path !== null && list.length === 0) this.byPath.delete(fault.path)
  }
}
