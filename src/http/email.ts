import { emailCapture } from '../domain/messages.js'
import { emailSendRequest } from '../schemas/messages.js'
import type { Route } from './route.js'
import { sendRoute } from './send-route.js'

/** POST /email/send. */
export const emailRoutes: Route[] = [
  sendRoute({ path: '/email/send', operationId: 'sendEmail', tag: 'email', summary: 'Send an email' }, emailSendRequest, emailCapture),
]
