import { z } from 'zod'
import type { OpenApiDocument } from '../openapi-builder.js'
import { controlRoute, type Route } from './route.js'
import { ROUTES as TABLE } from './routes.js'

/** OpenAPI documents, one per base URL, built on first request (a few milliseconds) and kept. */
const documents = new Map<string, OpenApiDocument>()

/**
 * `GET /__sandbox/openapi.json`. It serves a document built from the whole route table, itself
 * included, so it is declared here and added to the table below instead of in
 * src/http/sandbox-controls.ts. The builder (src/openapi-builder.ts, and zod's JSON Schema
 * rendering) is imported on the first request: a test file that never asks for the document never
 * loads it.
 */
export const openApiRoute: Route = controlRoute({
  method: 'GET',
  path: '/__sandbox/openapi.json',
  operationId: 'sandboxOpenApi',
  summary: 'This document',
  description:
    'Served without the admin token: it describes the API and holds no state, keys or messages, so tools (Swagger UI, client generators) can fetch it.',
  public: true,
  response: z.record(z.string(), z.unknown()),
  resolve: async ({ sandbox }) => {
    let document = documents.get(sandbox.baseUrl)
    if (!document) {
      const { buildOpenApiDocumentOf } = await import('../openapi-builder.js')
      document = documents.get(sandbox.baseUrl) ?? buildOpenApiDocumentOf(ROUTES, { baseUrl: sandbox.baseUrl })
      documents.set(sandbox.baseUrl, document)
    }
    return { body: document }
  },
})

/** Every route the handlers serve: the table, then the OpenAPI document's own route. */
export const ROUTES: readonly Route[] = [...TABLE, openApiRoute]
