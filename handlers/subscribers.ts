import type { HttpHandler } from 'msw'
import { ApiError } from '../src/domain/errors.js'
import type { SandboxState } from '../src/domain/sandbox.js'
import { toPage } from '../src/schemas/pagination.js'
import { subscriberCreateRequest, subscriberUpdateRequest } from '../src/schemas/subscriber.js'
import { apiRoute } from './guard.js'
import { pageQuery } from './query.js'

/** POST /subscribers, PUT/GET /subscribers/{id}, GET /subscribers. */
export function subscriberHandlers(sandbox: SandboxState): HttpHandler[] {
  return [
    apiRoute(sandbox, {
      method: 'GET',
      path: '/subscribers',
      resolve: ({ key, url }) => {
        const { page, limit } = pageQuery(url)
        const { data, total } = sandbox.subscribers.list(key.account, page, limit)
        return { body: toPage(data, page, limit, total) }
      },
    }),
    apiRoute(sandbox, {
      method: 'GET',
      path: '/subscribers/:id',
      resolve: ({ key, params }) => ({ body: sandbox.subscribers.get(key.account, params.id) }),
    }),
    apiRoute(sandbox, {
      method: 'POST',
      path: '/subscribers',
      body: subscriberCreateRequest,
      resolve: async ({ key, body }) => ({ body: await sandbox.subscribers.create(key.account, body) }),
    }),
    apiRoute(sandbox, {
      method: 'PUT',
      path: '/subscribers/:id',
      body: subscriberUpdateRequest,
      resolve: async ({ key, params, body }) => {
        if (Object.keys(body).length === 0) {
          throw new ApiError(400, 'missing_parameter', 'Send at least one field to change: `email`, `phone`, `first_name` or `tags`.')
        }
        return { body: await sandbox.subscribers.update(key.account, params.id, body) }
      },
    }),
  ]
}
