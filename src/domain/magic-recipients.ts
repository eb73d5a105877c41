/**
 * Magic recipients, like card test numbers: a send to one of these is answered or delivered
 * the way the table says. Every other valid recipient is accepted and delivered.
 */
import type { ErrorCodeName } from '../contract/error.js'

export type MagicOutcome =
  { kind: 'delivered' } | { kind: 'failed'; reason: string } | { kind: 'reject'; code: ErrorCodeName; message: string }

export interface MagicRecipient {
  recipient: string
  channel: 'email' | 'phone'
  outcome: MagicOutcome
  description: string
}

/** The documented table (README "Magic recipients" is generated from the same facts). */
export const MAGIC_RECIPIENTS: readonly MagicRecipient[] = [
  {
    recipient: 'delivered@sendbox.test',
    channel: 'email',
    outcome: { kind: 'delivered' },
    description: 'accepted, then sent, then delivered',
  },
  {
    recipient: 'bounce@sendbox.test',
    channel: 'email',
    outcome: { kind: 'failed', reason: 'bounced: mailbox does not exist' },
    description: 'accepted, then sent, then failed (hard bounce)',
  },
  {
    recipient: 'invalid@sendbox.test',
    channel: 'email',
    outcome: {
      kind: 'reject',
      code: 'invalid_email',
      message: '`to` is not a deliverable email address (magic recipient invalid@sendbox.test).',
    },
    description: '400 `invalid_email` at once',
  },
  {
    recipient: 'ratelimit@sendbox.test',
    channel: 'email',
    outcome: {
      kind: 'reject',
      code: 'rate_limit_exceeded',
      message:
        'Rate limit exceeded (magic recipient ratelimit@sendbox.test). Wait for Retry-After seconds and try again.',
    },
    description: '429 `rate_limit_exceeded` at once, with Retry-After',
  },
  {
    recipient: 'error@sendbox.test',
    channel: 'email',
    outcome: {
      kind: 'reject',
      code: 'internal_error',
      message: 'Internal error (magic recipient error@sendbox.test). Retry with backoff.',
    },
    description: '500 `internal_error` at once',
  },
  {
    recipient: '+15005550006',
    channel: 'phone',
    outcome: { kind: 'delivered' },
    description: 'accepted, then sent, then delivered',
  },
  {
    recipient: '+15005550001',
    channel: 'phone',
    outcome: { kind: 'failed', reason: 'unreachable: handset off or out of coverage' },
    description: 'accepted, then sent, then failed (unreachable)',
  },
  {
    recipient: '+15005550002',
    channel: 'phone',
    outcome: { kind: 'failed', reason: 'blocked: recipient opted out (STOP)' },
    description: 'accepted, then sent, then failed (opted out)',
  },
  {
    recipient: '+15005550009',
    channel: 'phone',
    outcome: {
      kind: 'reject',
      code: 'invalid_phone',
      message: '`to` is not a reachable phone number (magic recipient +15005550009).',
    },
    description: '400 `invalid_phone` at once',
  },
  {
    recipient: '+15005550429',
    channel: 'phone',
    outcome: {
      kind: 'reject',
      code: 'rate_limit_exceeded',
      message: 'Rate limit exceeded (magic recipient +15005550429). Wait for Retry-After seconds and try again.',
    },
    description: '429 `rate_limit_exceeded` at once, with Retry-After',
  },
  {
    recipient: '+15005550500',
    channel: 'phone',
    outcome: {
      kind: 'reject',
      code: 'internal_error',
      message: 'Internal error (magic recipient +15005550500). Retry with backoff.',
    },
    description: '500 `internal_error` at once',
  },
]

const byRecipient = new Map(MAGIC_RECIPIENTS.map((m) => [m.recipient, m.outcome]))

/** The outcome for a recipient (emails compared case-insensitively). */
export function magicOutcome(recipient: string): MagicOutcome {
  return byRecipient.get(recipient.toLowerCase()) ?? { kind: 'delivered' }
}

/** The stable codes of a failed delivery (a webhook's and a status step's `error_code`). */
export type FailureCode = 'bounced' | 'unreachable' | 'opted_out' | 'blocked'

/** The stable code of a failure reason: the reason's first word names it (`bounced: …`, `opted out (STOP)`). */
export function failureCode(reason: string): FailureCode {
  if (reason.startsWith('bounced')) return 'bounced'
  if (reason.startsWith('unreachable')) return 'unreachable'
  if (reason.startsWith('opted out')) return 'opted_out'
  return 'blocked'
}
