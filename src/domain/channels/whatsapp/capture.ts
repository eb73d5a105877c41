import type { WhatsappSendRequest } from '../../../contract/messages.js'
import { findCodes, linksInText } from '../../extract.js'
import { renderedText, type RenderedTemplate } from '../../templates.js'
import { base, fromText, inboundBase, outcomeFor, stringWeight } from '../shared.js'
import { whatsappReading } from './reading.js'
import type { CaptureInputOf, CaptureOutcome, ChannelDescriptor, Sender } from '../types.js'

/** The one-line preview of a template message: `template (language): name=value, …`. */
export function whatsappPreview(template: string, language: string, parameters: Record<string, string>): string {
  const entries = Object.entries(parameters)
  return entries.length === 0
    ? `${template} (${language})`
    : `${template} (${language}): ${entries.map(([k, v]) => `${k}=${v}`).join(', ')}`
}

/** The capture of a send whose template is configured: its text is the filled template, as the recipient reads it. */
function templated(
  sender: Sender,
  body: WhatsappSendRequest,
  raw: Record<string, unknown>,
  outcome: CaptureOutcome,
  parameters: Record<string, string>,
  rendered: RenderedTemplate,
): CaptureInputOf<'whatsapp'> {
  const text = renderedText(rendered)
  const message = {
    ...base(sender, 'whatsapp', body.to, raw),
    ...fromText(text),
    whatsapp: {
      template: body.template,
      language: body.language,
      parameters,
      preview: whatsappPreview(body.template, body.language, parameters),
      rendered,
    },
  }
  return { message, outcome }
}

/** WhatsApp: template, language and parameters; links and codes read from the parameter values. */
export const whatsappChannel: ChannelDescriptor<'whatsapp', WhatsappSendRequest> = {
  ...whatsappReading,
  capture(sender, body, raw, retryAfter, context) {
    // Copy with defineProperty semantics so a "__proto__" parameter stays an ordinary entry.
    const parameters = Object.fromEntries(Object.entries((raw.parameters ?? {}) as Record<string, string>))
    // Configured templates are checked after the field rules, before the magic recipients.
    const rendered = context?.templates?.render(body.template, body.language, parameters)
    const outcome = outcomeFor(body.to, retryAfter)
    if (rendered) return templated(sender, body, raw, outcome, parameters, rendered)
    const values = Object.values(parameters)
    const preview = whatsappPreview(body.template, body.language, parameters)
    // The template's name announces its codes too (`otp_login` with {"1": "482913"}): one line per
    // parameter, `template name: value`, so a keyword in either stands beside the value.
    const lines = Object.entries(parameters).map(
      ([name, value]) => `${body.template.replace(/_/g, ' ')} ${name}: ${value}`,
    )
    const message = {
      ...base(sender, 'whatsapp', body.to, raw),
      text: preview,
      links: linksInText(...values),
      images: [],
      codes: findCodes(lines.join('\n')),
      whatsapp: { template: body.template, language: body.language, parameters, preview },
    }
    return { message, outcome }
  },
  // A reply is free text, not a template: `template` and `language` are empty, `preview` is the text.
  receive(reply) {
    const message = {
      ...inboundBase(reply, 'whatsapp'),
      ...fromText(reply.text),
      whatsapp: { template: '', language: '', parameters: {}, preview: reply.text, from: reply.from },
    }
    return { message, outcome: { kind: 'delivered' } }
  },
  weight: (m) => stringWeight(m.whatsapp.preview) * 3 + stringWeight(m.text) * 2,
}
