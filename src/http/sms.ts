import { smsCapture } from '../domain/messages.js'
import { smsSendRequest } from '../schemas/messages.js'
import type { Route } from './route.js'
import { sendRoute } from './send-route.js'

/** POST /sms/send. */
export const smsRoutes: Route[] = [
  sendRoute({ path: '/sms/send', operationId: 'sendSms', tag: 'sms', summary: 'Send an SMS' }, smsSendRequest, smsCapture),
]
