import { z } from 'zod'

/** The list envelope of the real service. */
export function paginated<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      pagination: z.object({
        page: z.number().int(),
        limit: z.number().int(),
        total: z.number().int(),
        pages: z.number().int(),
      }),
    })
    .meta({ id })
}

export interface Page<T> {
  data: T[]
  pagination: { page: number; limit: number; total: number; pages: number }
}

/** Builds the envelope; `pages = ceil(total / limit)`, 0 when empty. */
export function toPage<T>(data: T[], page: number, limit: number, total: number): Page<T> {
  return { data, pagination: { page, limit, total, pages: Math.ceil(total / limit) } }
}

/** One page of an in-memory list (newest-first outbox, journal): the slice plus the envelope. */
export function pageOf<T>(all: readonly T[], page: number, limit: number): Page<T> {
  return toPage(all.slice((page - 1) * limit, page * limit), page, limit, all.length)
}
