import { whatsappChannel } from '../domain/channels/index.js'
import { whatsappSendRequest } from '../contract/messages.js'
import type { Route } from './route.js'
import { sendRoute } from './send-route.js'

/** How the sandbox checks a send against configured templates (the OpenAPI document says it). */
const TEMPLATE_CHECK = [
  'Sandbox: when WhatsApp templates are configured (`--templates FILE`, `GET /__sandbox/templates` lists them), the send is checked against them after the field rules, as Meta does:',
  'an unknown `template` is 400 `invalid_parameter` with `param: "template"` (the message lists the closest known names);',
  'a known template in an unknown `language` is 400 `invalid_parameter` with `param: "language"` (the message lists its languages);',
  'a placeholder without a parameter is 400 `missing_parameter`, a parameter the template does not have 400 `unknown_parameter`, both with `param: "parameters.<name>"`.',
  'Without templates any template name is accepted. A send to a number that replied STOP to this account is answered 200 `queued` and fails in the lifecycle as `opted out (STOP)`.',
].join(' ')

/** POST /whatsapp/send. */
export const whatsappSendRoute: Route = sendRoute(
  whatsappChannel,
  {
    path: '/whatsapp/send',
    operationId: 'sendWhatsapp',
    summary: 'Send a WhatsApp template message',
    description: TEMPLATE_CHECK,
  },
  whatsappSendRequest,
)
