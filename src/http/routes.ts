import { conversationRoutes } from './conversations.js'
import { emailRoutes } from './email.js'
import type { Route } from './route.js'
import { sandboxControlRoutes } from './sandbox-controls.js'
import { sandboxLiveRoutes } from './sandbox-live.js'
import { sandboxMcpRoutes } from './sandbox-mcp.js'
import { smsRoutes } from './sms.js'
import { subscriberRoutes } from './subscribers.js'
import { whatsappRoutes } from './whatsapp.js'

/**
 * Every endpoint sendbox serves, one object each: the MSW handlers (`createHandlers`), the
 * OpenAPI document (`buildOpenApiDocument`) and the fuzz tests' endpoint list all read this
 * table, so none of them restates a route. API routes first (hottest first: sends), then the
 * /__sandbox controls. See docs/decisions/route-table.md.
 */
export const ROUTES: readonly Route[] = [
  ...emailRoutes,
  ...smsRoutes,
  ...whatsappRoutes,
  ...subscriberRoutes,
  ...sandboxControlRoutes,
  ...sandboxLiveRoutes,
  ...sandboxMcpRoutes,
  ...conversationRoutes,
]

export type { Route, RouteContext, RouteResult, RouteScope, RouteMethod } from './route.js'
