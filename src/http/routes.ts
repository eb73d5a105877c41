import { conversationRoutes } from './conversations.js'
import { CHANNELS, type Channel } from '../contract/constants.js'
import { emailSendRoute } from './email.js'
import type { Route } from './route.js'
import { sandboxCheckRoutes } from './sandbox-checks.js'
import { sandboxControlRoutes } from './sandbox-controls.js'
import { sandboxLiveRoutes } from './sandbox-live.js'
import { operationRoutes } from './operations.js'
import { sandboxMcpRoutes } from './sandbox-mcp.js'
import { screenshotRoutes } from './screenshot-route.js'
import { smsSendRoute } from './sms.js'
import { subscriberRoutes } from './subscribers.js'
import { whatsappSendRoute } from './whatsapp.js'

/** Each channel's send endpoint (`POST /v1/{channel}/send`). A channel without one is a compile error. */
export const SEND_ROUTES: Record<Channel, Route> = {
  email: emailSendRoute,
  sms: smsSendRoute,
  whatsapp: whatsappSendRoute,
}

/**
 * Every endpoint sendbox serves, one object each: the MSW handlers (`createHandlers`), the
 * OpenAPI document (`buildOpenApiDocument`) and the fuzz tests' endpoint list all read this
 * table, so none of them restates a route. API routes first (hottest first: sends), then the
 * /__sandbox controls. See docs/decisions/route-table.md.
 */
export const ROUTES: readonly Route[] = [
  ...CHANNELS.map((channel) => SEND_ROUTES[channel]),
  ...subscriberRoutes,
  ...sandboxControlRoutes,
  ...sandboxCheckRoutes,
  ...sandboxLiveRoutes,
  ...screenshotRoutes,
  ...sandboxMcpRoutes,
  ...conversationRoutes,
  ...operationRoutes,
]

export type { Route, RouteContext, RouteResult, RouteScope, RouteMethod } from './route.js'
