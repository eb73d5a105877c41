import { whatsappCapture } from '../src/domain/messages.js'
import { whatsappSendRequest } from '../src/schemas/messages.js'
import type { Route } from './route.js'
import { sendRoute } from './send-route.js'

/** POST /whatsapp/send. */
export const whatsappRoutes: Route[] = [
  sendRoute({ path: '/whatsapp/send', operationId: 'sendWhatsapp', tag: 'whatsapp', summary: 'Send a WhatsApp template message' }, whatsappSendRequest, whatsappCapture),
]
