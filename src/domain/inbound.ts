/**
 * Simulated replies (`POST /__sandbox/inbound`, `sandbox.inbound(...)`): a person answers the
 * app. The reply is captured with `direction: "inbound"`, delivered to the app as a
 * `message.received` webhook, and its keyword (STOP, START…) opts the number out of, or back
 * into, the account it replied to.
 */
import type { CapturedMessage } from '../contract/captured-message.js'
import { INBOUND_CHANNELS, type InboundChannel } from '../contract/constants.js'
import { CHANNEL_DESCRIPTORS } from './channels/index.js'
import { isoAt } from './clock.js'
import { ApiError } from './errors.js'
import { foldKeyword, keywordAction, type OptOutStore } from './opt-outs.js'
import type { Outbox } from './outbox.js'
import { maskKey, type ApiKeyConfig } from './plans.js'
import type { WebhookSender } from './webhooks.js'

export { INBOUND_CHANNELS }

/** A reply to simulate: who answers (`from`), on which channel, to which account (by key or account id). */
export interface InboundInput {
  channel: InboundChannel
  /** An API key: the reply goes to its account. */
  key?: string
  /** An account id (instead of `key`). */
  account?: string
  /** The person's number (E.164). */
  from: string
  /** The app's number; default: the account id. */
  to?: string
  text: string
}

/** What a reply did. */
export interface InboundResult {
  message: CapturedMessage
  /** `opt_out` (STOP…), `opt_in` (START…), or null (HELP and any other text). */
  action: 'opt_out' | 'opt_in' | null
  /** Whether `from` is opted out of the account after this reply. */
  opted_out: boolean
}

/** What a reply needs from the sandbox. */
export interface InboundDeps {
  keys: readonly ApiKeyConfig[]
  outbox: Outbox
  optOuts: OptOutStore
  webhooks: WebhookSender | undefined
  now: () => number
}

const E164 = /^\+[0-9]{8,15}$/

/** Checks the input (400s naming the field) and finds the key config the reply goes to. */
function recipientOf(input: InboundInput, keys: readonly ApiKeyConfig[]): ApiKeyConfig {
  if (!(INBOUND_CHANNELS as readonly string[]).includes(input.channel))
    throw new ApiError(
      'invalid_parameter',
      `\`channel\` must be one of ${INBOUND_CHANNELS.join(', ')} (got ${JSON.stringify(input.channel)}).`,
      'channel',
    )
  if (typeof input.from !== 'string' || !E164.test(input.from))
    throw new ApiError(
      'invalid_phone',
      '`from` must be the replying phone number in E.164 format, like +14155550123.',
      'from',
    )
  if (typeof input.text !== 'string' || input.text.length === 0 || input.text.length > 4096)
    throw new ApiError('invalid_parameter', '`text` must be the reply, 1 to 4096 characters.', 'text')
  // In-process calls skip the HTTP schema: the same bounds are checked here (issue 36, R19).
  if (input.to !== undefined && (typeof input.to !== 'string' || input.to.length > 64))
    throw new ApiError('invalid_parameter', "`to` must be the app's number or id, at most 64 characters.", 'to')
  for (const field of ['key', 'account'] as const) {
    if (input[field] !== undefined && typeof input[field] !== 'string')
      throw new ApiError('invalid_parameter', `\`${field}\` must be a string.`, field)
  }
  return accountKey(keys, input.key, input.account)
}

/**
 * The key config a `key` or an `account` names (400 naming the field for an unknown one). `keys`
 * is what the caller may name: a team token passes its own accounts' keys only, and `team` names
 * it, so that another account's key or account gets the very answer a missing one gets.
 */
export function accountKey(
  keys: readonly ApiKeyConfig[],
  key: string | undefined,
  account: string | undefined,
  team?: string,
): ApiKeyConfig {
  if (key === undefined && account === undefined)
    throw new ApiError('missing_parameter', 'Name the account: `key` (an API key) or `account`.', 'key')
  if (key !== undefined) {
    const found = keys.find((k) => k.key === key)
    if (!found)
      throw new ApiError(
        'invalid_parameter',
        team === undefined
          ? `\`key\` "${String(key).slice(0, 64)}" is not a configured API key; \`sendbox keys\` lists them.`
          : `\`key\` "${String(key).slice(0, 64)}" is not an API key of the accounts the team token "${team}" acts on; \`GET /__sandbox/keys\` lists them.`,
        'key',
      )
    if (account !== undefined && account !== found.account)
      throw new ApiError(
        'invalid_parameter',
        `\`account\` "${String(account).slice(0, 64)}" is not the account of that key (${found.account}).`,
        'account',
      )
    return found
  }
  const found = keys.find((k) => k.account === account)
  if (!found)
    throw new ApiError(
      'invalid_parameter',
      `\`account\` "${String(account).slice(0, 64)}" is not an account ${team === undefined ? 'of any configured key' : `the team token "${team}" acts on`}; accounts: ${[...new Set(keys.map((k) => k.account))].join(', ')}.`,
      'account',
    )
  return found
}

/** Captures a reply, applies its keyword and posts `message.received`. */
export function receiveInbound(deps: InboundDeps, input: InboundInput): InboundResult {
  const sender = recipientOf(input, deps.keys)
  // The body as sent, but never an API key in full.
  const raw = { ...input, ...(input.key !== undefined ? { key: maskKey(input.key) } : {}) } as Record<string, unknown>
  const to = typeof input.to === 'string' && input.to !== '' ? input.to : sender.account
  const descriptor = CHANNEL_DESCRIPTORS[input.channel]
  const message = deps.outbox.capture(descriptor.receive!({ sender, from: input.from, to, text: input.text, raw }))
  const action = keywordAction(input.text)
  const at = isoAt(deps.now())
  if (action === 'opt_out')
    deps.optOuts.add({ account: sender.account, number: input.from, keyword: foldKeyword(input.text), at })
  if (action === 'opt_in') deps.optOuts.remove(sender.account, input.from)
  // Posted once the reply is durable (with a store), as the outbox's own events are.
  const webhooks = deps.webhooks
  if (webhooks)
    deps.outbox.feed.publications.publish(message.message_id, () =>
      webhooks.emit(
        {
          type: 'message.received',
          message_id: message.message_id,
          channel: message.channel,
          status: 'received',
          from: input.from,
          to,
          text: input.text,
          at,
        },
        sender.account,
      ),
    )
  return { message, action, opted_out: deps.optOuts.get(sender.account, input.from) !== undefined }
}
