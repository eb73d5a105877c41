/**
 * The contract's enumerations, without zod: the schemas build on them, and the web inbox imports
 * them as values without pulling zod into its bundle (it used to restate them, and its reset
 * scopes had fallen behind: no `opt_outs`, no `webhooks`).
 */

/** The channels a message can be sent on. */
export const CHANNELS = ['email', 'sms', 'whatsapp'] as const
export type Channel = (typeof CHANNELS)[number]

/** The channels a person can reply on (`POST /__sandbox/inbound`): their descriptors must have `receive`, the others must not. */
export const INBOUND_CHANNELS = ['sms', 'whatsapp'] as const satisfies readonly Channel[]
export type InboundChannel = (typeof INBOUND_CHANNELS)[number]

/** The service's plans. */
export const PLANS = ['starter', 'pro', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

/** Requests per minute per plan; Enterprise is "custom" in the reference, 10,000 here unless configured. */
export const DEFAULT_LIMITS: Readonly<Record<Plan, number>> = { starter: 100, pro: 1_000, enterprise: 10_000 }

/**
 * How long a wait for a message lasts when not told, in milliseconds: one place for every door.
 * `caller`: `outbox.waitFor` in-process, the HTTP client's `waitFor` and the matchers. `endpoint`:
 * `GET /__sandbox/messages/wait` and the MCP wait tools without a `timeout` (longer: a person or an
 * agent asking by hand, not a test with its own timeout). `max`: the most one request may wait.
 */
export const WAIT_TIMEOUT_MS = { caller: 5_000, endpoint: 10_000, max: 60_000 } as const

/** Longest `text` a listed message carries; the whole text stays at `GET /__sandbox/messages/{id}`. */
export const SUMMARY_TEXT_LENGTH = 2_000
/** Most links (and images) a listed message carries. */
export const SUMMARY_LINKS = 100
/** Longest link a listed message carries: longer ones are cut and marked (`…[+N chars]`); the whole link is in the message by id. */
export const SUMMARY_LINK_LENGTH = 2_048

/** Lifecycle states of a captured message (the real API only ever answers `queued`). */
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'failed'] as const
export type MessageStatus = (typeof MESSAGE_STATUSES)[number]

/** What `reset()` may reset alone (no scope: everything). */
export const RESET_SCOPES = ['subscribers', 'messages', 'limits', 'faults', 'journal', 'opt_outs', 'webhooks'] as const
export type ResetScope = (typeof RESET_SCOPES)[number]

/** What a team token (`--team-token`) may reset of its own accounts (the other scopes are shared by every account). */
export const ACCOUNT_RESET_SCOPES = [
  'messages',
  'subscribers',
  'faults',
  'opt_outs',
] as const satisfies readonly ResetScope[]
export type AccountResetScope = (typeof ACCOUNT_RESET_SCOPES)[number]

/**
 * The entry of a message's channel in a record that every channel must fill. Where the program
 * does something per channel it goes through this (or a `Record<Channel, …>`), so that a new
 * channel fails to compile until each such place handles it.
 *
 * @example
 * byChannel(message, { email: (m) => m.email.subject, sms: (m) => m.text, … }) // one entry per channel
 */
export function byChannel<M extends { channel: Channel }, R>(
  message: M,
  cases: { [C in Channel]: (message: Extract<M, { channel: C }>) => R },
): R {
  return (cases[message.channel] as (message: M) => R)(message)
}
