import type { HttpHandler } from 'msw'
import { emailCapture } from '../src/domain/messages.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { emailSendRequest } from '../src/schemas/messages.js'
import { apiRoute } from './guard.js'

/** POST /email/send. */
export function emailHandlers(sandbox: SandboxState): HttpHandler[] {
  return [
    apiRoute(sandbox, {
      method: 'POST',
      path: '/email/send',
      body: emailSendRequest,
      resolve: ({ key, body, raw, retryAfter }) => {
        const message = sandbox.outbox.capture(emailCapture(key, body, raw, retryAfter))
        return { body: { success: true, message_id: message.message_id, status: 'queued' } }
      },
    }),
  ]
}
