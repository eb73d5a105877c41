import type { z } from 'zod'
import type { ChannelDescriptor } from '../domain/channels/index.js'
import { OPTED_OUT_REASON } from '../domain/opt-outs.js'
import type { Channel } from '../contract/constants.js'
import { sendResult, type BodySchema } from '../contract/messages.js'
import { apiRoute, type Route, type RouteContext } from './route.js'

/**
 * A send endpoint: validate, capture in the outbox (magic recipients may refuse it first), and
 * answer the real API's send result — the same for every channel.
 */
export function sendRoute<C extends Channel, S extends z.ZodObject>(
  channel: ChannelDescriptor<C, z.infer<S>>,
  route: { path: `/${C}/send`; operationId: string; summary: string; description?: string },
  body: BodySchema<S>,
): Route {
  const capture = ({ sandbox, key, body: parsed, raw, retryAfter }: RouteContext<unknown>) => {
    const input = channel.capture(key, parsed as z.infer<S>, raw, retryAfter, { templates: sandbox.templates })
    // A number that replied STOP to this account (on a channel people reply on): accepted as every send is, failed in the lifecycle.
    if (channel.receive && sandbox.optOuts.get(key.account, input.message.to))
      input.outcome = { kind: 'failed', reason: OPTED_OUT_REASON }
    const message = sandbox.outbox.capture(input as never)
    return { body: { success: true as const, message_id: message.message_id, status: 'queued' as const } }
  }
  return apiRoute({
    method: 'POST',
    ...route,
    tag: channel.channel,
    body,
    response: sendResult,
    resolve: (context) => {
      // What the capture needs done first (the email's HTML tools on the process's first email, a large HTML's derivation); undefined when nothing.
      const pending = channel.prepare?.(context.body as z.infer<S>)
      return pending ? pending.then(() => capture(context)) : capture(context)
    },
  })
}
