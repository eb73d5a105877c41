import { z } from 'zod'
import { isForceableStatus } from './errors.js'

/** A fault spec as `POST /__sandbox/faults` and `sandbox.faults.add()` take it. */
export const faultSpecSchema = z
  .strictObject({
    status: z.number().int().refine(isForceableStatus, {
      error: '`status` must be 400, 401, 404, 429 or a 5xx status.',
    }).meta({ enum: [400, 401, 404, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)] }),
    code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, { error: '`code` must be a snake_case error code, like service_unavailable.' }).optional(),
    path: z.string().startsWith('/', { error: '`path` must be a request path starting with "/", like /v1/sms/send.' }).optional(),
    method: z
      .string()
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], { error: '`method` must be GET, POST, PUT, DELETE or PATCH.' }))
      // The document's form of the same rule (any case, as the transform above accepts).
      .meta({ pattern: '^(?:[Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Pp][Uu][Tt]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Pp][Aa][Tt][Cc][Hh])$' })
      .optional(),
    times: z.number().int().min(1, { error: '`times` must be a whole number of at least 1.' }).optional(),
    probability: z.number().min(0).max(1, { error: '`probability` must be between 0 and 1.' }).optional(),
    delay_ms: z.number().int().min(0).max(60_000, { error: '`delay_ms` must be 0 to 60000.' }).optional(),
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
}

/** Injected failures. Probabilities draw from a seeded source so runs repeat. */
export class Faults {
  private faults: Fault[] = []
  private nextId = 1

  constructor(private readonly random: () => number) {}

  /** Adds a fault; throws a ZodError on an invalid spec. */
  add(spec: FaultSpec): Fault {
    const parsed = faultSpecSchema.parse(spec)
    const fault: Fault = {
      id: `flt_${this.nextId++}`,
      status: parsed.status,
      code: parsed.code ?? null,
      path: parsed.path ?? null,
      method: parsed.method ?? null,
      remaining: parsed.times ?? null,
      probability: parsed.probability ?? 1,
      delay_ms: parsed.delay_ms ?? 0,
      hits: 0,
    }
    this.faults.push(fault)
    return fault
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }))
  }

  clear(): void {
    this.faults = []
  }

  get size(): number {
    return this.faults.length
  }

  /** The first fault that fires for this request, consuming one of its `times`. */
  match(method: string, path: string): Fault | undefined {
    if (this.faults.length === 0) return undefined
    for (const fault of this.faults) {
      if (fault.path !== null && fault.path !== path) continue
      if (fault.method !== null && fault.method !== method) continue
      if (fault.probability < 1 && this.random() >= fault.probability) continue
      fault.hits++
      if (fault.remaining !== null) {
        fault.remaining--
        if (fault.remaining === 0) this.faults = this.faults.filter((f) => f !== fault)
      }
      return { ...fault }
    }
    return undefined
  }
}
