import { z } from 'zod'

/** Where a page is in its list: the service's `pagination` object. */
export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
})

/** The list envelope of the real service. */
export function paginated<T extends z.ZodType>(item: T, id: string) {
  return z.object({ data: z.array(item), pagination: paginationSchema }).meta({ id })
}

/** One page of a list, as `paginated` describes it. */
export interface Page<T> {
  data: T[]
  pagination: z.infer<typeof paginationSchema>
}

/** Builds the envelope; `pages = ceil(total / limit)`, 0 when empty. */
export function toPage<T>(data: T[], page: number, limit: number, total: number): Page<T> {
  return { data, pagination: { page, limit, total, pages: Math.ceil(total / limit) } }
}

/** One page of an in-memory list (newest-first outbox, journal): the slice plus the envelope. */
export function pageOf<T>(all: readonly T[], page: number, limit: number): Page<T> {
  return toPage(all.slice((page - 1) * limit, page * limit), page, limit, all.length)
}

/**
 * The envelope's JSON text around items that are JSON text already: exactly
 * `JSON.stringify(toPage(items.map(JSON.parse), page, limit, total))`, without parsing or
 * re-serialising the items (a list page of cached records costs a join, not a stringify).
 */
export function pageJson(items: readonly string[], page: number, limit: number, total: number): string {
  const { data: _, ...rest } = toPage([], page, limit, total)
  // `data` is the envelope's first key (toPage builds it so); the rest follows in its own order.
  return `{"data":[${items.join(',')}],${JSON.stringify(rest).slice(1)}`
}
