import type { HttpHandler } from 'msw'
import type { SandboxState } from '../src/domain/sandbox.js'
import { emailHandlers } from './email.js'
import { apiMalformedPath, apiNotFound } from './guard.js'
import { openapiHandlers } from './openapi.js'
import { sandboxControlHandlers } from './sandbox-controls.js'
import { smsHandlers } from './sms.js'
import { subscriberHandlers } from './subscribers.js'
import { webInboxHandlers } from './web-inbox.js'
import { whatsappHandlers } from './whatsapp.js'

/**
 * Every MSW request handler of a sandbox, in match order: the /v1 routes (hottest first), the
 * /v1 catch-all that answers 404 after the guards, then the /__sandbox controls.
 */
export function createHandlers(sandbox: SandboxState): HttpHandler[] {
  return [
    apiMalformedPath(sandbox), // first: msw's matcher throws on such paths
    ...emailHandlers(sandbox),
    ...smsHandlers(sandbox),
    ...whatsappHandlers(sandbox),
    ...subscriberHandlers(sandbox),
    ...apiNotFound(sandbox),
    ...openapiHandlers(sandbox),
    ...webInboxHandlers(sandbox), // before the controls' admin guard: the page holds no data
    ...sandboxControlHandlers(sandbox),
  ]
}
