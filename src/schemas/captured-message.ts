import { z } from 'zod'

/** The channels a message can be sent on. */
export const CHANNELS = ['email', 'sms', 'whatsapp'] as const
export type Channel = (typeof CHANNELS)[number]

/** Lifecycle states of a captured message (the real API only ever answers `queued`). */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const
export type MessageStatus = (typeof MESSAGE_STATUSES)[number]

const PLAN_VALUES = ['starter', 'pro', 'enterprise'] as const

const isoTime = z.string().meta({ format: 'date-time' })

export const statusChangeSchema = z
  .object({
    status: z.enum(MESSAGE_STATUSES),
    at: isoTime,
    reason: z.string().optional(),
  })
  .meta({ id: 'StatusChange' })
export type StatusChange = z.infer<typeof statusChangeSchema>

/** Fields every captured message has, whatever its channel. */
const common = {
  message_id: z.string().meta({ example: 'msg_3kTn0aZp8QxW1cVb5yRm2LsD' }),
  account: z.string(),
  plan: z.enum(PLAN_VALUES),
  key: z.string().meta({ description: 'The sending API key, masked.' }),
  to: z.string(),
  request: z.record(z.string(), z.unknown()).meta({ description: 'The request body exactly as the client sent it.' }),
  status: z.enum(MESSAGE_STATUSES),
  reason: z.string().nullable().meta({ description: 'Why a failed message failed; null otherwise.' }),
  status_history: z.array(statusChangeSchema),
  created_at: isoTime,
  text: z.string().meta({ description: 'The readable text: the email HTML rendered as text (headings as written), the SMS text, or the WhatsApp preview line.' }),
  links: z.array(z.string()).meta({ description: 'The links a person can click: absolute http(s) URLs in order of appearance, de-duplicated, entities decoded, as WHATWG-serialized URLs (href of an email\'s <a> and <area>, and URLs in its text; URLs in an SMS or in template parameters).' }),
  images: z.array(z.string()).meta({ description: 'Image sources of an email (<img src>): absolute http(s) URLs in order, de-duplicated, WHATWG-serialized. Always empty for SMS and WhatsApp.' }),
  codes: z.array(z.string()).meta({ description: 'One-time codes found in the message (the rule: docs/links-and-codes.md).' }),
}

export const emailPartSchema = z.object({
  from: z.object({ email: z.string(), name: z.string().nullable() }).nullable(),
  subject: z.string(),
  html: z.string(),
})

export const smsPartSchema = z.object({
  text: z.string(),
  from: z.string().nullable(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  units: z.int().meta({ description: 'Septets for GSM-7, UTF-16 code units for UCS-2.' }),
  segments: z.int(),
  characters: z.int().meta({ description: 'Unicode code points in the text.' }),
})

export const whatsappPartSchema = z.object({
  template: z.string(),
  language: z.string(),
  parameters: z.record(z.string(), z.string()),
  preview: z.string(),
})

export const emailMessageSchema = z.object({ ...common, channel: z.literal('email'), email: emailPartSchema }).meta({ id: 'CapturedEmail' })
export const smsMessageSchema = z.object({ ...common, channel: z.literal('sms'), sms: smsPartSchema }).meta({ id: 'CapturedSms' })
export const whatsappMessageSchema = z.object({ ...common, channel: z.literal('whatsapp'), whatsapp: whatsappPartSchema }).meta({ id: 'CapturedWhatsapp' })

/** A message the API accepted, and what happened to it since (sandbox only). */
export const capturedMessageSchema = z
  .discriminatedUnion('channel', [emailMessageSchema, smsMessageSchema, whatsappMessageSchema])
  .meta({ id: 'CapturedMessage', description: 'A message the API accepted, and what happened to it since (sandbox only). Discriminated by `channel`.' })

export type EmailMessage = z.infer<typeof emailMessageSchema>
export type SmsMessage = z.infer<typeof smsMessageSchema>
export type WhatsappMessage = z.infer<typeof whatsappMessageSchema>
export type CapturedMessage = z.infer<typeof capturedMessageSchema>
/** The captured message of one channel. */
export type MessageOf<C extends Channel> = Extract<CapturedMessage, { channel: C }>

/** Longest `text` a listed message carries; the whole text stays at `GET /__sandbox/messages/{id}`. */
export const SUMMARY_TEXT_LENGTH = 2_000
/** Most links a listed message carries. */
export const SUMMARY_LINKS = 100
/** Longest link (or image source) a listed message carries whole; a longer one ends with `…[cut: N chars]`. */
export const SUMMARY_LINK_LENGTH = 2_048

/** A link as a summary carries it: whole up to {@link SUMMARY_LINK_LENGTH}, else cut with a marker saying how much is missing. */
export function summaryLink(url: string): string {
  // A summary summarized again (the web inbox re-summarizes what an event carries) stays as it is.
  if (url.length <= SUMMARY_LINK_LENGTH || CUT_MARK.test(url.slice(SUMMARY_LINK_LENGTH))) return url
  return `${url.slice(0, SUMMARY_LINK_LENGTH)}…[cut: ${url.length - SUMMARY_LINK_LENGTH} chars]`
}
const CUT_MARK = /^…\[cut: [0-9]+ chars\]$/

/** At most {@link SUMMARY_LINKS} links, each cut by {@link summaryLink}. */
export function summaryLinks(urls: readonly string[]): string[] {
  const shown = urls.length > SUMMARY_LINKS ? urls.slice(0, SUMMARY_LINKS) : urls
  return shown.some((url) => url.length > SUMMARY_LINK_LENGTH) ? shown.map(summaryLink) : (shown as string[])
}

const summaryExtras = {
  text_truncated: z.boolean().meta({ description: `True when \`text\` was cut to ${SUMMARY_TEXT_LENGTH} characters for the list.` }),
  links_total: z.int().meta({ description: `How many links the message has (the list carries at most ${SUMMARY_LINKS}, each cut to ${SUMMARY_LINK_LENGTH} characters plus a \`…[cut: N chars]\` marker; the whole link is in the message by id).` }),
  images_total: z.int().meta({ description: `How many image sources the message has (the list carries at most ${SUMMARY_LINKS}).` }),
}

/**
 * What `GET /__sandbox/messages` lists: a captured message without its request body and email
 * HTML, the text cut to {@link SUMMARY_TEXT_LENGTH} characters and at most {@link SUMMARY_LINKS}
 * links, so a page of the list stays small whatever the messages hold.
 */
export const capturedMessageSummarySchema = z
  .discriminatedUnion('channel', [
    emailMessageSchema.omit({ request: true, email: true }).extend({ ...summaryExtras, email: emailPartSchema.omit({ html: true }) }),
    smsMessageSchema.omit({ request: true }).extend(summaryExtras),
    whatsappMessageSchema.omit({ request: true }).extend(summaryExtras),
  ])
  .meta({ id: 'CapturedMessageSummary' })
export type CapturedMessageSummary = z.infer<typeof capturedMessageSummarySchema>
