import type { z } from 'zod'
import type { CaptureContext } from '../domain/channels/index.js'
import { OPTED_OUT_REASON } from '../domain/opt-outs.js'
import type { CaptureInput } from '../domain/outbox.js'
import type { ApiKeyConfig } from '../domain/plans.js'
import { sendResult, type BodySchema } from '../schemas/messages.js'
import { apiRoute, type Route } from './route.js'

/** Builds what the outbox captures from a validated send (see src/domain/messages.ts). */
type Capture<T> = (sender: ApiKeyConfig, body: T, raw: Record<string, unknown>, retryAfter: () => number, context: CaptureContext) => CaptureInput

/**
 * A send endpoint: validate, capture in the outbox (magic recipients may refuse it first), and
 * answer the real API's send result — the same for every channel.
 */
export function sendRoute<S extends z.ZodObject>(
  route: { path: string; operationId: string; tag: string; summary: string; description?: string },
  body: BodySchema<S>,
  capture: Capture<z.infer<S>>,
): Route {
  return apiRoute({
    method: 'POST',
    ...route,
    body,
    response: sendResult,
    resolve: ({ sandbox, key, body: parsed, raw, retryAfter }) => {
      const input = capture(key, parsed as z.infer<S>, raw, retryAfter, { templates: sandbox.templates })
      // A number that replied STOP to this account: accepted as every send is, failed in the lifecycle.
      if (input.message.channel !== 'email' && sandbox.optOuts.get(key.account, input.message.to)) input.outcome = { kind: 'failed', reason: OPTED_OUT_REASON }
      const message = sandbox.outbox.capture(input)
      return { body: { success: true as const, message_id: message.message_id, status: 'queued' as const } }
    },
  })
}
