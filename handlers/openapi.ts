import { http, type HttpHandler } from 'msw'
import type { SandboxState } from '../src/domain/sandbox.js'
import { buildOpenApiDocument, type OpenApiDocument } from '../src/openapi.js'
import { controlJson } from './guard.js'
import { controlsBase } from './sandbox-controls.js'

/**
 * `GET /__sandbox/openapi.json`: the OpenAPI 3.1 document for this sandbox's base URL. Built on
 * first request (a few milliseconds) and kept. It sits before the admin guard on purpose: the
 * document describes the API and holds no state, keys or messages, so tools (Swagger UI, client
 * generators) can fetch it without the admin token.
 */
export function openapiHandlers(sandbox: SandboxState): HttpHandler[] {
  let document: OpenApiDocument | undefined
  return [
    http.get(`${controlsBase(sandbox)}/openapi.json`, () => {
      document ??= buildOpenApiDocument({ baseUrl: sandbox.baseUrl })
      return controlJson(200, document)
    }),
  ]
}
