import { smsChannel } from '../domain/channels/index.js'
import { smsSendRequest } from '../contract/messages.js'
import type { Route } from './route.js'
import { sendRoute } from './send-route.js'

/** POST /sms/send. */
export const smsSendRoute: Route = sendRoute(
  smsChannel,
  { path: '/sms/send', operationId: 'sendSms', summary: 'Send an SMS' },
  smsSendRequest,
)
