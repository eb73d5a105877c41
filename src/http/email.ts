import { emailChannel } from '../domain/channels/index.js'
import { emailSendRequest } from '../contract/messages.js'
import type { Route } from './route.js'
import { sendRoute } from './send-route.js'

/** POST /email/send. */
export const emailSendRoute: Route = sendRoute(
  emailChannel,
  { path: '/email/send', operationId: 'sendEmail', summary: 'Send an email' },
  emailSendRequest,
)
