import { conversationRoutes } from './conversations.js'
import { CHANNELS, type Channel } from '../contract/constants.js'
import { emailSendRoute } from './email.js'
import { z } from 'zod'
import { controlRoute, type Route } from './route.js'
import type { OpenApiDocument } from './openapi.js'
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

/** OpenAPI documents, one per base URL, built on first request (a few milliseconds) and kept. */
const documents = new Map<string, OpenApiDocument>()

/** `GET /__sandbox/openapi.json`: the document of this whole table, itself included. */
const openApiRoute: Route = controlRoute({
  method: 'GET',
  path: '/__sandbox/openapi.json',
  operationId: 'sandboxOpenApi',
  summary: 'This document',
  description:
    'Served without the admin token: it describes the API and holds no state, keys or messages, so tools (Swagger UI, client generators) can fetch it.',
  public: true,
  response: z.record(z.string(), z.unknown()),
  // The builder (and zod's JSON Schema rendering) is imported on the first request: a sandbox
  // never asked for the document never loads it (issue 37).
  resolve: async ({ sandbox }) => {
    let document = documents.get(sandbox.baseUrl)
    if (!document) {
      const { openApiDocumentOf } = await import('./openapi.js')
      document = documents.get(sandbox.baseUrl) ?? openApiDocumentOf(ROUTES, { baseUrl: sandbox.baseUrl })
      documents.set(sandbox.baseUrl, document)
    }
    return { body: document }
  },
})

/**
 * Every endpoint sendbox serves, one object each: the MSW handlers (`createHandlers`), the
 * OpenAPI document (`buildOpenApiDocument`, src/http/openapi-document.ts), the route-matching test and the fuzz tests'
 * endpoint lists all read this table, so none of them restates a route. API routes first
 * (hottest first: sends), then the /__sandbox controls, this document's own route last. See
 * docs/decisions/route-table.md.
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
  openApiRoute,
]

export type { Route, RouteContext, RouteResult, RouteScope, RouteMethod } from './route.js'
