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
  return z
    .string()
    .meta({ minLength: min, maxLength: max })
    .check(
      z.refine(
        (value: string) => {
          const length = codePointLength(value)
          return length >= min && length <= max
        },
        {
          error:
            min === 1
              ? `\`${field}\` must be 1 to ${max} characters long; send a non-empty string.`
              : `\`${field}\` must be ${min} to ${max} characters long.`,
        },
      ),
    )
}

/**
 * The address rule, one regular expression so that the OpenAPI document publishes exactly what
 * the server checks (with `format: email`, which accepts everything it accepts): a local part of
 * 1 to 64 characters (letters, digits, `_ ' + -`, dot-separated, no leading, trailing or double
 * dot), then a domain of labels of 1 to 63 letters, digits or `-` that neither start nor end
 * with `-`, ending in a letters-only top-level label of 2 to 63. At most 254 characters in all.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/

/** An email address field; failures of format are reported as `invalid_email`. */
export function emailAddress(field: string) {
  return z
    .string()
    .max(254, { abort: true, error: `\`${field}\` is not a valid email address: it is longer than 254 characters.` })
    .regex(EMAIL_PATTERN, {
      error: `\`${field}\` is not a valid email address. Send an address like ana@example.com (local part at most 64 characters; domain labels at most 63, not starting or ending with "-").`,
    })
    .meta({ format: 'email' })
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
