import { ApiError } from '../domain/errors.js'
import { paginated } from '../contract/pagination.js'
import { pageQuery } from '../contract/query.js'
import { subscriberCreateRequest, subscriberSchema, subscriberUpdateRequest } from '../contract/subscriber.js'
import { apiRoute, type Route } from './route.js'

const subscriberList = paginated(subscriberSchema, 'SubscriberList')

/** POST /subscribers, GET /subscribers, GET/PUT /subscribers/{id}. */
export const subscriberRoutes: Route[] = [
  apiRoute({
    method: 'GET',
    path: '/subscribers',
    operationId: 'listSubscribers',
    tag: 'subscribers',
    summary: 'List subscribers, oldest first',
    query: pageQuery,
    response: subscriberList,
    resolve: ({ sandbox, key, query }) => {
      return { json: sandbox.subscribers.listJson(key.account, query.page ?? 1, query.limit ?? 20) }
    },
  }),
  apiRoute({
    method: 'GET',
    path: '/subscribers/{id}',
    operationId: 'getSubscriber',
    tag: 'subscribers',
    summary: 'Fetch a subscriber',
    description: "Another account's subscriber answers 404 like an unknown id.",
    response: subscriberSchema,
    resolve: ({ sandbox, key, params }) => ({ json: sandbox.subscribers.getJson(key.account, params.id) }),
  }),
  apiRoute({
    method: 'POST',
    path: '/subscribers',
    operationId: 'createSubscriber',
    tag: 'subscribers',
    summary: 'Create a subscriber',
    description:
      'At least one of `email` and `phone` is required, as a string (400 `missing_parameter`). Emails are unique per account, case-insensitively (400 `duplicate_email`). Tags are stored de-duplicated, in order.',
    body: subscriberCreateRequest,
    response: subscriberSchema,
    resolve: async ({ sandbox, key, body }) => ({ body: await sandbox.subscribers.create(key.account, body) }),
  }),
  apiRoute({
    method: 'PUT',
    path: '/subscribers/{id}',
    operationId: 'updateSubscriber',
    tag: 'subscribers',
    summary: 'Update a subscriber',
    description:
      'A partial update: send at least one field (`{}` is 400 `missing_parameter`). `tags` replaces the list; `null` clears a field as long as the subscriber keeps an email or a phone (else 400 `missing_parameter`). The schema says what it can without the stored subscriber: at least one field, and not `email` and `phone` both null; clearing the one the subscriber has while it lacks the other is refused by the server alone.',
    body: subscriberUpdateRequest,
    response: subscriberSchema,
    resolve: async ({ sandbox, key, params, body }) => {
      if (Object.keys(body).length === 0) {
        throw new ApiError(
          'missing_parameter',
          'Send at least one field to change: `email`, `phone`, `first_name` or `tags`.',
        )
      }
      return { body: await sandbox.subscribers.update(key.account, params.id, body) }
    },
  }),
]
