import { z } from 'zod'

/** The real service's error object: `{ error: { code, message } }`, optionally `param`. */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Machine-readable code, snake_case (for example `invalid_email`).' }),
      message: z.string().meta({ description: 'Human-readable explanation that says how to fix the request.' }),
      param: z.string().optional().meta({ description: 'The offending field, dotted when nested (`from.email`).' }),
    }),
  })
  .meta({ id: 'Error' })

export type ErrorBody = z.infer<typeof errorSchema>
