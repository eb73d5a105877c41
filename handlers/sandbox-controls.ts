import { z } from 'zod'
import { ApiError } from '../src/domain/errors.js'
import { faultSpecSchema } from '../src/domain/faults.js'
import { CHANNELS, MESSAGE_STATUSES, type OutboxFilter } from '../src/domain/outbox.js'
import { maskKey } from '../src/domain/plans.js'
import { RESET_SCOPES, type ResetScope } from '../src/domain/sandbox.js'
import { buildOpenApiDocument, type OpenApiDocument } from '../src/openapi.js'
import {
  capturedMessageSchema,
  faultListSchema,
  faultSchema,
  healthSchema,
  journalEntrySchema,
  keyListSchema,
  okSchema,
  resetResultSchema,
} from '../src/schemas/controls.js'
import { pageOf, paginated } from '../src/schemas/pagination.js'
import { enumParam, pageQuery, sinceParam, textParam } from '../src/schemas/query.js'
import { controlRoute, type Route } from './route.js'

const messageNotFound = (id: string) =>
  new ApiError(404, 'not_found', `No captured message with id "${id}". It may have been cleared or evicted by the outbox cap.`)

const accountParam = textParam('Only this account (an API key\'s account; by default the key itself).')

/** The outbox filters of `GET /__sandbox/messages` (and `/messages/wait`). */
export const outboxFilterQuery = {
  channel: enumParam('channel', CHANNELS as unknown as ['email', 'sms', 'whatsapp'], 'Only this channel.'),
  to: textParam('Exact recipient, case-insensitive. A `+` sent unencoded (`?to=+1415…`) arrives as a space, which is read as `+`.'),
  status: enumParam('status', MESSAGE_STATUSES as unknown as ['queued', 'sent', 'delivered', 'failed'], 'Only messages in this lifecycle status.'),
  since: sinceParam,
  account: accountParam,
}

/** OpenAPI documents, one per base URL, built on first request (a few milliseconds) and kept. */
const documents = new Map<string, OpenApiDocument>()

/** Outbox, journal, faults, reset, health and the OpenAPI document under /__sandbox. */
export const sandboxControlRoutes: Route[] = [
  controlRoute({
    method: 'GET',
    path: '/__sandbox/health',
    operationId: 'sandboxHealth',
    summary: 'Health and sizes of the outbox, journal and faults',
    response: healthSchema,
    resolve: ({ sandbox }) => ({ body: sandbox.health() }),
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/openapi.json',
    operationId: 'sandboxOpenApi',
    summary: 'This document',
    description: 'Served without the admin token: it describes the API and holds no state, keys or messages, so tools (Swagger UI, client generators) can fetch it.',
    public: true,
    response: z.record(z.string(), z.unknown()),
    resolve: ({ sandbox }) => {
      let document = documents.get(sandbox.baseUrl)
      if (!document) {
        document = buildOpenApiDocument({ baseUrl: sandbox.baseUrl })
        documents.set(sandbox.baseUrl, document)
      }
      return { body: document }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages',
    operationId: 'listCapturedMessages',
    summary: 'Captured messages, newest first',
    description: 'Every account unless `account` is given.',
    query: { ...pageQuery, ...outboxFilterQuery },
    response: paginated(capturedMessageSchema, 'CapturedMessagePage'),
    resolve: ({ sandbox, query }) => {
      const filter: OutboxFilter = { channel: query.channel, status: query.status, to: query.to, account: query.account, since: query.since }
      return { body: pageOf(sandbox.outbox.list(filter), query.page ?? 1, query.limit ?? 20) }
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__sandbox/messages',
    operationId: 'clearCapturedMessages',
    summary: 'Clear the outbox',
    response: okSchema,
    resolve: ({ sandbox }) => {
      sandbox.outbox.clear()
      return { body: { ok: true } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/{id}',
    operationId: 'getCapturedMessage',
    summary: 'One captured message with its status history',
    response: capturedMessageSchema,
    resolve: ({ sandbox, params }) => {
      const message = sandbox.outbox.get(params.id)
      if (!message) throw messageNotFound(params.id)
      return { body: message }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/{id}/html',
    operationId: 'getCapturedMessageHtml',
    summary: 'The HTML body of a captured email',
    description: 'Served with `Content-Security-Policy: sandbox` (scripts never run on the sandbox\'s origin) and `X-Content-Type-Options: nosniff`.',
    previewToken: true,
    response: { html: true },
    resolve: ({ sandbox, params }) => {
      const message = sandbox.outbox.get(params.id)
      if (!message?.email) throw messageNotFound(params.id)
      return new Response(message.email.html, {
        status: 200,
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          // The HTML is the client's: show it, never run its scripts on the sandbox's origin.
          'Content-Security-Policy': "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline' *",
          'X-Content-Type-Options': 'nosniff',
        },
      })
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/requests',
    operationId: 'listRequests',
    summary: 'The request journal, newest first',
    query: { ...pageQuery, account: accountParam },
    response: paginated(journalEntrySchema, 'JournalPage'),
    resolve: ({ sandbox, query }) => ({ body: pageOf(sandbox.journal.list({ account: query.account }), query.page ?? 1, query.limit ?? 20) }),
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/reset',
    operationId: 'resetSandbox',
    summary: 'Back to the seeded state',
    description: 'Subscribers, outbox, journal, rate-limit windows and faults; or only the part named by `scope`.',
    query: { scope: enumParam('scope', RESET_SCOPES as unknown as [ResetScope, ...ResetScope[]], 'Reset only this part.') },
    response: resetResultSchema,
    resolve: async ({ sandbox, query }) => {
      await sandbox.reset(query.scope)
      return { body: { ok: true, scope: query.scope ?? 'all' } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/faults',
    operationId: 'listFaults',
    summary: 'Faults in force',
    response: faultListSchema,
    resolve: ({ sandbox }) => ({ body: { data: sandbox.faults.list() } }),
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/faults',
    operationId: 'addFault',
    summary: 'Inject a failure',
    description: '`path` is the request path as the server sees it, base path included (`/v1/sms/send`), matched exactly. `times` defaults to unlimited, `probability` to 1. A forced 429 carries the `Retry-After` a real one would at that instant.',
    body: faultSpecSchema,
    response: faultSchema,
    resolve: ({ sandbox, raw }) => ({ body: sandbox.faults.add(raw as z.input<typeof faultSpecSchema>) }),
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__sandbox/faults',
    operationId: 'clearFaults',
    summary: 'Clear every fault',
    response: okSchema,
    resolve: ({ sandbox }) => {
      sandbox.faults.clear()
      return { body: { ok: true } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/keys',
    operationId: 'listKeys',
    summary: 'The API keys in force, with plan, limit and live use',
    description: 'Keys starting with `test_` in full (they are public), every other key masked (`live…23`).',
    response: keyListSchema,
    resolve: ({ sandbox }) => ({
      body: { data: sandbox.keyUsage().map((k) => ({ key: k.key.startsWith('test_') ? k.key : maskKey(k.key), plan: k.plan, plan_name: k.planName, account: k.account, limit: k.limit, used: k.used })) },
    }),
  }),
]
