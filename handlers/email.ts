import type { HttpHandler } from 'msw'
import { emailCapture } from '../src/domain/messages.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { emailSendRequest } from '../src/schemas/messages.js'
import { sendRoute } from './send-route.js'

/** POST /email/send. */
export function emailHandlers(sandbox: SandboxState): HttpHandler[] {
  return [sendRoute(sandbox, '/email/send', emailSendRequest, emailCapture)]
}
