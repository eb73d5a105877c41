import type { HttpHandler } from 'msw'
import type { z } from 'zod'
import type { CaptureInput } from '../src/domain/outbox.js'
import type { ApiKeyConfig } from '../src/domain/plans.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import type { BodySchema } from '../src/schemas/messages.js'
import { apiRoute } from './guard.js'

/** Builds what the outbox captures from a validated send (see src/domain/messages.ts). */
type Capture<T> = (sender: ApiKeyConfig, body: T, raw: Record<string, unknown>, retryAfter: () => number) => CaptureInput

/**
 * A send endpoint: validate, capture in the outbox (magic recipients may refuse it first), and
 * answer the real API's send result — the same for every channel.
 */
export function sendRoute<S extends z.ZodObject>(sandbox: SandboxState, path: string, body: BodySchema<S>, capture: Capture<z.infer<S>>): HttpHandler {
  return apiRoute(sandbox, {
    method: 'POST',
    path,
    body: body as never,
    resolve: ({ key, body: parsed, raw, retryAfter }) => {
      const message = sandbox.outbox.capture(capture(key, parsed as z.infer<S>, raw, retryAfter))
      return { body: { success: true, message_id: message.message_id, status: 'queued' } }
    },
  })
}
