import { z } from 'zod'

import { CHANNELS } from './constants.js'

/**
 * The check report of a captured message (issue 35): the one shape that HTTP
 * (`GET /__sandbox/messages/{id}/checks`), the client, the matcher `toPassChecks`, MCP
 * `check_message`, both UIs and `sendbox check` serve.
 */

/** What happens to the person: `error` breaks or will not arrive; `warning` works badly; `info` worth knowing. */
export const CHECK_SEVERITIES = ['error', 'warning', 'info'] as const
export type CheckSeverity = (typeof CHECK_SEVERITIES)[number]

export const CHECK_CATEGORIES = [
  'compatibility',
  'links',
  'images',
  'accessibility',
  'size',
  'spam',
  'encoding',
  'sender',
  'template',
] as const
export type CheckCategory = (typeof CHECK_CATEGORIES)[number]

/** Where in an HTML source a finding applies (1-based line and column). */
export const sourceLocationSchema = z.object({
  line: z.int().min(1),
  column: z.int().min(1),
  excerpt: z.string().meta({ description: 'The source around the finding, at most 120 characters.' }),
})

export const checkSchema = z
  .object({
    id: z.string().meta({
      description:
        'The rule: the same for every finding of that rule (`links.javascript`, `compat.css-display-flex`, `sms.ucs2-character`).',
      example: 'links.javascript',
    }),
    severity: z.enum(CHECK_SEVERITIES),
    category: z.enum(CHECK_CATEGORIES),
    message: z.string().meta({ description: 'What is wrong and how to fix it.' }),
    location: sourceLocationSchema.optional().meta({ description: 'HTML: the source line, column and an excerpt.' }),
    link: z.string().optional().meta({ description: 'The link or image URL the finding is about.' }),
    status: z
      .int()
      .optional()
      .meta({ description: 'A live link check: the final HTTP status (absent when unreachable).' }),
    character: z.string().optional().meta({ description: 'SMS: the character (for example `’`).' }),
    position: z.int().optional().meta({ description: "SMS: the character's 0-based code-point index in the text." }),
    replacement: z.string().optional().meta({ description: 'SMS: the GSM-7 replacement.' }),
    parameter: z.string().optional().meta({ description: "WhatsApp: the parameter's name." }),
    clients: z
      .array(z.string())
      .optional()
      .meta({ description: 'Compatibility: the clients concerned (`outlook.windows`, `gmail.desktop-webmail`…).' }),
    notes: z.array(z.string()).optional().meta({ description: "Compatibility: caniemail's notes for those clients." }),
    url: z
      .string()
      .optional()
      .meta({ description: "Where to read more (caniemail's page of the feature, a rule's documentation)." }),
    score: z.number().optional().meta({ description: "Spam: the rule's or the whole score from spamd." }),
  })
  .meta({ id: 'Check' })
export type Check = z.infer<typeof checkSchema>

/** One email client's support of the features the email uses. */
export const clientSupportSchema = z
  .object({
    client: z.string().meta({ example: 'outlook.windows' }),
    supported: z
      .number()
      .min(0)
      .max(100)
      .meta({ description: "Percentage of the email's features the client supports fully (partial counts half)." }),
    counted: z.boolean().meta({ description: 'Whether the client counts for the score (`--email-clients`).' }),
  })
  .meta({ id: 'ClientSupport' })
export type ClientSupport = z.infer<typeof clientSupportSchema>

export const checkReportSchema = z
  .object({
    message_id: z.string(),
    channel: z.enum(CHANNELS),
    score: z
      .int()
      .min(0)
      .max(100)
      .meta({ description: '100 when nothing is found; see docs/checks.md for how it is computed.' }),
    counts: z.object({ error: z.int(), warning: z.int(), info: z.int() }),
    checks: z.array(checkSchema),
    clients: z
      .array(clientSupportSchema)
      .optional()
      .meta({ description: 'Email: support per client of the features the email uses.' }),
    checked_at: z.string().meta({ format: 'date-time' }),
    live_links: z.boolean().meta({ description: 'Whether live link results are included (`?links=live`).' }),
  })
  .meta({ id: 'CheckReport' })
export type CheckReport = z.infer<typeof checkReportSchema>
