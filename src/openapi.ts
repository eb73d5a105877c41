import { ROUTES } from './http/route-list.js'
import { buildOpenApiDocumentOf, type OpenApiDocument, type OpenApiOptions } from './openapi-builder.js'

export { ROUTES, openApiRoute } from './http/route-list.js'
export type { OpenApiDocument, OpenApiOptions } from './openapi-builder.js'

/**
 * Builds the OpenAPI 3.1 document of the API and the sandbox controls from the route table
 * (`ROUTES`) and the zod schemas the handlers validate with (src/openapi-builder.ts).
 *
 * @example
 * const doc = buildOpenApiDocument({ baseUrl: 'http://127.0.0.1:4010/v1' })
 * doc.paths['/email/send'].post // the send-email operation
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  return buildOpenApiDocumentOf(ROUTES, options)
}
