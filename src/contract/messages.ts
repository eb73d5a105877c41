import { z } from 'zod'
import { codePointString, emailAddress, phoneNumber, type FormatErrorCode } from './fields.js'

/** A request body schema plus the facts the validator needs to report errors in the contract's order. */
export interface BodySchema<T extends z.ZodObject = z.ZodObject> {
  schema: T
  /** Dotted field paths whose format failures are `invalid_email` / `invalid_phone`. */
  formatCodes: Record<string, FormatErrorCode>
}

/** Body of POST /email/send. */
export const emailSendRequest = {
  schema: z
    .object({
      to: emailAddress('to'),
      subject: codePointString('subject', 1, 998),
      html: z.string().min(1, { error: '`html` must be a non-empty HTML string.' }),
      from: z
        .object({
          email: emailAddress('from.email'),
          name: codePointString('from.name', 1, 256).optional(),
        })
        .optional(),
    })
    .meta({ id: 'EmailSendRequest' }),
  formatCodes: { to: 'invalid_email', 'from.email': 'invalid_email' },
} satisfies BodySchema

/** SMS sender: 1 to 11 alphanumeric characters, or an E.164 number. */
const smsSender = z.string().regex(/^(?:[A-Za-z0-9]{1,11}|\+[0-9]{8,15})$/, {
  error: '`from` must be 1 to 11 letters or digits (a sender name like "Acme"), or a phone number in E.164 format.',
})

/** Body of POST /sms/send. */
export const smsSendRequest = {
  schema: z
    .object({
      to: phoneNumber('to'),
      message: codePointString('message', 1, 1600),
      from: smsSender.optional(),
    })
    .meta({ id: 'SmsSendRequest' }),
  formatCodes: { to: 'invalid_phone' },
} satisfies BodySchema

/**
 * Template parameters: an object of string values. Checked by hand rather than with
 * `z.record`, which silently drops a `__proto__` key — the sandbox must lose nothing.
 */
const templateParameters = z
  .custom<Record<string, string>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    error: '`parameters` must be an object mapping parameter names to string values.',
  })
  .check(
    z.refine((value: Record<string, unknown>) => Object.values(value).every((v) => typeof v === 'string'), {
      error: 'Every value in `parameters` must be a string.',
    }),
  )
  .meta({ type: 'object', additionalProperties: { type: 'string' } })

/** Body of POST /whatsapp/send. */
export const whatsappSendRequest = {
  schema: z
    .object({
      to: phoneNumber('to'),
      template: z.string().regex(/^[a-z0-9_]{1,512}$/, {
        error:
          '`template` must be a template name of 1 to 512 lowercase letters, digits or underscores, like order_update.',
      }),
      language: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, {
        error: '`language` must be a language code like "en" or "en_US".',
      }),
      parameters: templateParameters.optional(),
    })
    .meta({ id: 'WhatsappSendRequest' }),
  formatCodes: { to: 'invalid_phone' },
} satisfies BodySchema

/** Answer of every accepted send. */
export const sendResult = z
  .object({
    success: z.literal(true),
    message_id: z.string().meta({ example: 'msg_3kTn0aZp8QxW1cVb5yRm2LsD' }),
    status: z.literal('queued'),
  })
  .meta({ id: 'SendResult' })

export type EmailSendRequest = z.infer<typeof emailSendRequest.schema>
export type SmsSendRequest = z.infer<typeof smsSendRequest.schema>
export type WhatsappSendRequest = z.infer<typeof whatsappSendRequest.schema>
export type SendResult = z.infer<typeof sendResult>
