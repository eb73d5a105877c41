import type { HttpHandler } from 'msw'
import { whatsappCapture } from '../src/domain/messages.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { whatsappSendRequest } from '../src/schemas/messages.js'
import { sendRoute } from './send-route.js'

/** POST /whatsapp/send. */
export function whatsappHandlers(sandbox: SandboxState): HttpHandler[] {
  return [sendRoute(sandbox, '/whatsapp/send', whatsappSendRequest, whatsappCapture)]
}
