import { z } from 'zod'
import { codePointLength, codePointString, emailAddress, phoneNumber } from './fields.js'
import type { BodySchema } from './messages.js'

/** The subscriber resource as stored and as answered. */
export const subscriberSchema = z
  .object({
    id: z.string().meta({ example: 'sub_8Hq2LmN4pR6sT0vX1zB3cD5f' }),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    first_name: z.string().nullable(),
    tags: z.array(z.string()),
    created_at: z.string().meta({ format: 'date-time' }),
    updated_at: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'Subscriber' })

export type Subscriber = z.infer<typeof subscriberSchema>

const tags = z
  .array(codePointString('tags[]', 1, 64), { error: '`tags` must be an array of strings.' })
  .meta({ maxItems: 100, description: 'At most 100 tags as sent; stored de-duplicated, first occurrence first.' })
  .check(
    z.refine((list: string[]) => list.length <= 100, {
      error: '`tags` may hold at most 100 tags.',
    }),
  )

const fields = {
  email: emailAddress('email').nullable().optional(),
  phone: phoneNumber('phone').nullable().optional(),
  first_name: codePointString('first_name', 1, 256).nullable().optional(),
  tags: tags.nullable().optional(),
}

/**
 * Body of POST /subscribers: at least one of `email`, `phone` as a string (the domain checks it:
 * 400 `missing_parameter`). The `anyOf` publishes the same rule to OpenAPI validators.
 */
export const subscriberCreateRequest = {
  schema: z.object(fields).meta({
    id: 'SubscriberCreateRequest',
    anyOf: [
      { required: ['email'], properties: { email: { type: 'string' } } },
      { required: ['phone'], properties: { phone: { type: 'string' } } },
    ],
  }),
  formatCodes: { email: 'invalid_email', phone: 'invalid_phone' },
} satisfies BodySchema

/**
 * Body of PUT /subscribers/{id}: a partial update; `null` clears a field. Published rules: at
 * least one field (`minProperties`), and never `email` and `phone` both null (the subscriber
 * would keep neither). "Keeps an email or a phone" also depends on the stored subscriber, which
 * no request schema can see: the server alone refuses clearing the one it has.
 */
export const subscriberUpdateRequest = {
  schema: z.object(fields).meta({
    id: 'SubscriberUpdateRequest',
    minProperties: 1,
    not: { required: ['email', 'phone'], properties: { email: { type: 'null' }, phone: { type: 'null' } } },
  }),
  formatCodes: { email: 'invalid_email', phone: 'invalid_phone' },
} satisfies BodySchema

export type SubscriberInput = z.infer<typeof subscriberCreateRequest.schema>

/** Tags as stored: de-duplicated, first occurrence kept, order kept. */
export function normalizeTags(list: readonly string[] | null | undefined): string[] {
  return list ? [...new Set(list)] : []
}

export { codePointLength }
