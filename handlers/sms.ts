import type { HttpHandler } from 'msw'
import { smsCapture } from '../src/domain/messages.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { smsSendRequest } from '../src/schemas/messages.js'
import { apiRoute } from './guard.js'

/** POST /sms/send. */
export function smsHandlers(sandbox: SandboxState): HttpHandler[] {
  return [
    apiRoute(sandbox, {
      method: 'POST',
      path: '/sms/send',
      body: smsSendRequest,
      resolve: ({ key, body, raw, retryAfter }) => {
        const message = sandbox.outbox.capture(smsCapture(key, body, raw, retryAfter))
        return { body: { success: true, message_id: message.message_id, status: 'queued' } }
      },
    }),
  ]
}
