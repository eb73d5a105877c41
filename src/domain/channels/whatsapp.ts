import type { WhatsappSendRequest } from '../../schemas/messages.js'
import { findCodes, linksInText } from '../extract.js'
import { base, outcomeFor, stringWeight } from './shared.js'
import type { ChannelDescriptor } from './types.js'

/** The one-line preview of a template message: `template (language): name=value, …`. */
export function whatsappPreview(template: string, language: string, parameters: Record<string, string>): string {
  const entries = Object.entries(parameters)
  return entries.length === 0
    ? `${template} (${language})`
    : `${template} (${language}): ${entries.map(([k, v]) => `${k}=${v}`).join(', ')}`
}

/** WhatsApp: template, language and parameters; links and codes read from the parameter values. */
export const whatsappChannel: ChannelDescriptor<'whatsapp', WhatsappSendRequest> = {
  channel: 'whatsapp',
  label: 'WhatsApp',
  capture(sender, body, raw, retryAfter) {
    const outcome = outcomeFor(body.to, retryAfter)
    // Copy with defineProperty semantics so a "__proto__" parameter stays an ordinary entry.
    const parameters = Object.fromEntries(Object.entries((raw.parameters ?? {}) as Record<string, string>))
    const values = Object.values(parameters)
    const preview = whatsappPreview(body.template, body.language, parameters)
    // The template's name announces its codes too (`otp_login` with {"1": "482913"}): one line per
    // parameter, `template name: value`, so a keyword in either stands beside the value.
    const lines = Object.entries(parameters).map(([name, value]) => `${body.template.replace(/_/g, ' ')} ${name}: ${value}`)
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
  from: () => null,
  subject: () => null,
  template: (m) => m.whatsapp.template,
  summary: (m) => m.whatsapp.preview,
  summaryPart: (m) => ({ whatsapp: m.whatsapp }),
  weight: (m) => stringWeight(m.whatsapp.preview) * 3,
}
