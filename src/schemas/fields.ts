import { z } from 'zod'

/** Number of Unicode code points in a string (what the contract's length limits count). */
export function codePointLength(value: string): number {
  let count = 0
  for (const _ of value) count++
  return count
}

/**
 * A string whose length, counted in Unicode code points, lies within `min..max`.
 * zod's own `.min()`/`.max()` count UTF-16 units, which would let an emoji count twice.
 */
export function codePointString(field: string, min: number, max: number) {
  // JSON Schema's minLength/maxLength count code points too, so the OpenAPI document can say it.
  return z.string().meta({ minLength: min, maxLength: max }).check(
    z.refine((value: string) => {
      const length = codePointLength(value)
      return length >= min && length <= max
    }, {
      error: min === 1
        ? `\`${field}\` must be 1 to ${max} characters long; send a non-empty string.`
        : `\`${field}\` must be ${min} to ${max} characters long.`,
    }),
  )
}

/** An email address field; failures of format are reported as `invalid_email`. */
export function emailAddress(field: string) {
  return z
    .string()
    .max(254, { error: `\`${field}\` is not a valid email address: it is longer than 254 characters.` })
    .check(z.email({ error: `\`${field}\` is not a valid email address. Send an address like ana@example.com.` }))
}

/** E.164 phone number pattern: `+` then 8 to 15 digits. */
export const E164 = /^\+[0-9]{8,15}$/

/** A phone number field; failures of format are reported as `invalid_phone`. */
export function phoneNumber(field: string) {
  return z.string().regex(E164, {
    error: `\`${field}\` is not a valid phone number. Use international (E.164) format: "+" then 8 to 15 digits, like +14155550123.`,
  })
}

/** Error codes a field's format failure maps to (type failures stay `invalid_parameter`). */
export type FormatErrorCode = 'invalid_email' | 'invalid_phone'
