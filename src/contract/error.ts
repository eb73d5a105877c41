import { z } from 'zod'

/**
 * Every error code sendbox answers with, API and controls, standalone transport included. A fault
 * may name its own `code` (snake_case), which is then answered as given.
 */
export const ERROR_CODES = [
  'unauthorized',
  'rate_limit_exceeded',
  'not_found',
  'invalid_content_type',
  'invalid_json',
  'payload_too_large',
  'unknown_parameter',
  'missing_parameter',
  'invalid_parameter',
  'invalid_email',
  'invalid_phone',
  'duplicate_email',
  'internal_error',
  'invalid_request',
  'forbidden_host',
  'forbidden_origin',
  'forbidden',
  'wait_timeout',
  'too_many_clients',
  'not_ready',
  'method_not_allowed',
  /** 501: a feature needs something this machine lacks (a screenshot without Chromium). */
  'not_available',
  /** 504: a screenshot took longer than its time limit. */
  'render_timeout',
] as const

export type ErrorCodeName = (typeof ERROR_CODES)[number]

/** A code a fault may force instead of its status's own (`service_unavailable`). */
export const FAULT_CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/

/** The real service's error object: `{ error: { code, message } }`, optionally `param`. */
export const errorSchema = z
  .object({
    error: z.object({
      // The known codes, or any snake_case code a fault was armed with (answered as given).
      code: z.union([z.enum(ERROR_CODES), z.string().regex(FAULT_CODE_PATTERN)]).meta({
        description:
          'Machine-readable code, snake_case (for example `invalid_email`): one of the codes listed, or the `code` a fault was armed with, answered as given.',
      }),
      message: z.string().meta({ description: 'Human-readable explanation that says how to fix the request.' }),
      param: z.string().optional().meta({
        description:
          "The offending field: dotted for nested keys (`from.email`), brackets for array items (`tags[3]`), the query parameter's name for a query.",
      }),
    }),
  })
  .meta({ id: 'Error' })

export type ErrorBody = z.infer<typeof errorSchema>
