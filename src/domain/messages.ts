import type { EmailSendRequest, SmsSendRequest, WhatsappSendRequest } from '../schemas/messages.js'
import { ApiError } from './errors.js'
import { magicOutcome } from './magic-recipients.js'
import type { CaptureInput, CapturedMessage } from './outbox.js'
import type { ApiKeyConfig } from './plans.js'
import { maskKey } from './plans.js'
import { newId } from './random.js'
import { encodeSms } from './sms-encoding.js'

/** Who is sending: the authenticated key. */
export type Sender = ApiKeyConfig

/** Applies the magic-recipient table: throws for "rejected at once", else gives the final outcome. */
function outcomeFor(recipient: string, retryAfter: () => number): CaptureInput['outcome'] {
  const outcome = magicOutcome(recipient)
  if (outcome.kind === 'reject') {
    const headers: Record<string, string> = outcome.status === 429 ? { 'Retry-After': String(retryAfter()) } : {}
    throw new ApiError(outcome.status, outcome.code, outcome.message, outcome.status === 400 ? 'to' : undefined, headers)
  }
  return outcome
}

function base(sender: Sender, channel: CapturedMessage['channel'], to: string, request: Record<string, unknown>) {
  return { message_id: newId('msg_'), channel, account: sender.account, plan: sender.plan, key: maskKey(sender.key), to, request }
}

/** The capture of an accepted email. */
export function emailCapture(sender: Sender, body: EmailSendRequest, raw: Record<string, unknown>, retryAfter: () => number): CaptureInput {
  const outcome = outcomeFor(body.to, retryAfter)
  return {
    ...base(sender, 'email', body.to, raw),
    outcome,
    email: {
      from: body.from ? { email: body.from.email, name: body.from.name ?? null } : null,
      subject: body.subject,
      html: body.html,
    },
  }
}

/** The capture of an accepted SMS, with its encoding and segment count. */
export function smsCapture(sender: Sender, body: SmsSendRequest, raw: Record<string, unknown>, retryAfter: () => number): CaptureInput {
  const outcome = outcomeFor(body.to, retryAfter)
  return {
    ...base(sender, 'sms', body.to, raw),
    outcome,
    sms: { text: body.message, from: body.from ?? null, ...encodeSms(body.message) },
  }
}

/** The capture of an accepted WhatsApp template message, with a one-line preview. */
export function whatsappCapture(sender: Sender, body: WhatsappSendRequest, raw: Record<string, unknown>, retryAfter: () => number): CaptureInput {
  const outcome = outcomeFor(body.to, retryAfter)
  // Copy with defineProperty semantics so a "__proto__" parameter stays an ordinary entry.
  const parameters = Object.fromEntries(Object.entries((raw.parameters ?? {}) as Record<string, string>))
  const entries = Object.entries(parameters)
  const preview = entries.length === 0
    ? `${body.template} (${body.language})`
    : `${body.template} (${body.language}): ${entries.map(([k, v]) => `${k}=${v}`).join(', ')}`
  return {
    ...base(sender, 'whatsapp', body.to, raw),
    outcome,
    whatsapp: { template: body.template, language: body.language, parameters, preview },
  }
}
