import type { HttpHandler } from 'msw'
import { smsCapture } from '../src/domain/messages.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { smsSendRequest } from '../src/schemas/messages.js'
import { sendRoute } from './send-route.js'

/** POST /sms/send. */
export function smsHandlers(sandbox: SandboxState): HttpHandler[] {
  return [sendRoute(sandbox, '/sms/send', smsSendRequest, smsCapture)]
}
