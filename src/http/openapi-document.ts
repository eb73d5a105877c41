import { openApiDocumentOf, type OpenApiDocument, type OpenApiOptions } from './openapi.js'
import { ROUTES } from './routes.js'

export type { OpenApiDocument, OpenApiOptions } from './openapi.js'

/**
 * The OpenAPI 3.1 document of the route table ({@link ROUTES}), as `sendbox openapi` prints it and
 * `GET /__sandbox/openapi.json` serves it (that route loads the builder on its first request).
 *
 * @example
 * const doc = buildOpenApiDocument({ baseUrl: 'http://127.0.0.1:4010/v1' })
 * doc.paths['/email/send'].post // the send-email operation
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  return openApiDocumentOf(ROUTES, options)
}
