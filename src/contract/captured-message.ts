import { z } from 'zod'

import {
  CHANNELS,
  MESSAGE_STATUSES,
  SUMMARY_LINK_LENGTH,
  SUMMARY_LINKS,
  SUMMARY_TEXT_LENGTH,
  type Channel,
  type MessageStatus,
} from './constants.js'

export { CHANNELS, MESSAGE_STATUSES, type Channel, type MessageStatus }

/** Whether a message was sent by the app (`outbound`) or is a simulated reply to it (`inbound`). */
export const DIRECTIONS = ['outbound', 'inbound'] as const
export type Direction = (typeof DIRECTIONS)[number]

const PLAN_VALUES = ['starter', 'pro', 'enterprise'] as const

const isoTime = z.string().meta({ format: 'date-time' })

export const statusChangeSchema = z
  .object({
    status: z.enum(MESSAGE_STATUSES),
    at: isoTime,
    reason: z.string().optional(),
    error_code: z.enum(['bounced', 'unreachable', 'opted_out', 'blocked']).optional().meta({
      description:
        "A failed step's stable code: `bounced` (email hard bounce), `unreachable` (handset off), `opted_out` (the number replied STOP to this account), `blocked` (the carrier refused it).",
    }),
  })
  .meta({ id: 'StatusChange' })
export type StatusChange = z.infer<typeof statusChangeSchema>

/** Fields every captured message has, whatever its channel. */
const common = {
  message_id: z.string().meta({ example: 'msg_3kTn0aZp8QxW1cVb5yRm2LsD' }),
  direction: z.enum(DIRECTIONS).meta({
    description: '`outbound`: sent through the API; `inbound`: a simulated reply (`POST /__sandbox/inbound`).',
  }),
  account: z.string(),
  plan: z.enum(PLAN_VALUES),
  key: z.string().meta({ description: 'The sending API key, masked.' }),
  to: z.string(),
  request: z.record(z.string(), z.unknown()).meta({ description: 'The request body exactly as the client sent it.' }),
  status: z.enum(MESSAGE_STATUSES),
  reason: z.string().nullable().meta({ description: 'Why a failed message failed; null otherwise.' }),
  status_history: z.array(statusChangeSchema),
  created_at: isoTime,
  text: z.string().meta({
    description:
      'The readable text: the email HTML rendered as text (headings as written), the SMS text, or the WhatsApp preview line.',
  }),
  links: z.array(z.string()).meta({
    description:
      'The links a person can click, in order of appearance, de-duplicated, entities decoded, each as its URL serialisation (controls and spaces percent-encoded): `<a href>`, `<area href>` and URLs written in the text of an email; URLs in an SMS or in template parameters. Absolute http(s) only.',
  }),
  images: z.array(z.string()).meta({
    description:
      'Image sources of an email (`<img src>`, absolute http(s), in order, de-duplicated, serialised like `links`); `[]` on every other channel.',
  }),
  codes: z
    .array(z.string())
    .meta({ description: 'One-time codes found in the message (the rule: docs/links-and-codes.md).' }),
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

/** A WhatsApp template filled with its parameters: what the recipient reads. */
export const renderedTemplateSchema = z
  .object({
    header: z.string().nullable(),
    body: z.string(),
    footer: z.string().nullable(),
    buttons: z.array(z.object({ text: z.string(), url: z.string().nullable() })),
  })
  .meta({ id: 'RenderedTemplate' })

export const whatsappPartSchema = z.object({
  template: z.string().meta({ description: 'The template name; empty for an inbound reply.' }),
  language: z.string(),
  parameters: z.record(z.string(), z.string()),
  preview: z.string(),
  rendered: renderedTemplateSchema
    .optional()
    .meta({ description: 'The filled template, when templates are configured (`--templates`).' }),
  from: z.string().optional().meta({ description: "An inbound reply's sender (its phone number)." }),
})

export const emailMessageSchema = z
  .object({ ...common, channel: z.literal('email'), email: emailPartSchema })
  .meta({ id: 'CapturedEmail' })
export const smsMessageSchema = z
  .object({ ...common, channel: z.literal('sms'), sms: smsPartSchema })
  .meta({ id: 'CapturedSms' })
export const whatsappMessageSchema = z
  .object({ ...common, channel: z.literal('whatsapp'), whatsapp: whatsappPartSchema })
  .meta({ id: 'CapturedWhatsapp' })

/** A message the API accepted, and what happened to it since (sandbox only). */
export const capturedMessageSchema = z
  .discriminatedUnion('channel', [emailMessageSchema, smsMessageSchema, whatsappMessageSchema])
  .meta({
    id: 'CapturedMessage',
    description:
      'A message the API accepted, and what happened to it since (sandbox only). Discriminated by `channel`.',
  })

export type EmailMessage = z.infer<typeof emailMessageSchema>
export type SmsMessage = z.infer<typeof smsMessageSchema>
export type WhatsappMessage = z.infer<typeof whatsappMessageSchema>
export type CapturedMessage = z.infer<typeof capturedMessageSchema>
/** The captured message of one channel. */
export type MessageOf<C extends Channel> = Extract<CapturedMessage, { channel: C }>

export { SUMMARY_LINK_LENGTH, SUMMARY_LINKS, SUMMARY_TEXT_LENGTH } from './constants.js'

const summaryExtras = {
  text_truncated: z
    .boolean()
    .meta({ description: `True when \`text\` was cut to ${SUMMARY_TEXT_LENGTH} characters for the list.` }),
  links_total: z.int().meta({
    description: `How many links the message has (the list carries at most ${SUMMARY_LINKS}, each cut to ${SUMMARY_LINK_LENGTH} characters with a \`…[+N chars]\` marker; the message by id has them whole).`,
  }),
}

/**
 * What `GET /__sandbox/messages` lists: a captured message without its request body and email
 * HTML, the text cut to {@link SUMMARY_TEXT_LENGTH} characters and at most {@link SUMMARY_LINKS}
 * links, so a page of the list stays small whatever the messages hold.
 */
export const capturedMessageSummarySchema = z
  .discriminatedUnion('channel', [
    emailMessageSchema
      .omit({ request: true, email: true })
      .extend({ ...summaryExtras, email: emailPartSchema.omit({ html: true }) }),
    smsMessageSchema.omit({ request: true }).extend(summaryExtras),
    whatsappMessageSchema.omit({ request: true }).extend(summaryExtras),
  ])
  .meta({ id: 'CapturedMessageSummary' })
export type CapturedMessageSummary = z.infer<typeof capturedMessageSummarySchema>

/**
 * Every channel of the contract has its captured message and its listed summary: a channel added
 * to CHANNELS without its schema (or a schema without its channel) fails to compile here.
 */
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const everyChannelCaptured: SameSet<Channel, CapturedMessage['channel']> &
  SameSet<Channel, CapturedMessageSummary['channel']> = true
void everyChannelCaptured
