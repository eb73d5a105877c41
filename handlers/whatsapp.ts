import type { HttpHandler } from 'msw'
import { whatsappCapture } from '../src/domain/messages.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { whatsappSendRequest } from '../src/schemas/messages.js'
import { apiRoute } from './guard.js'

/** POST /whatsapp/send. */
export function whatsappHandlers(sandbox: SandboxState): HttpHandler[] {
  return [
    apiRoute(sandbox, {
      method: 'POST',
      path: '/whatsapp/send',
      body: whatsappSendRequest,
      resolve: ({ key, body, raw, retryAfter }) => {
        const message = sandbox.outbox.capture(whatsappCapture(key, body, raw, retryAfter))
        return { body: { success: true, message_id: message.message_id, status: 'queued' } }
      },
    }),
  ]
}
