import { ApiError } from '../domain/errors.js'
import { isoAt } from '../domain/clock.js'
import {
  inboundRequestSchema,
  inboundResultSchema,
  optOutListSchema,
  optOutRequestSchema,
  optOutSchema,
  templateListSchema,
  webhookAttemptPageSchema,
  webhookAttemptSchema,
} from '../contract/conversations.js'
import { okSchema } from '../contract/controls.js'
import { pageOf, toPage } from '../contract/pagination.js'
import { pageQuery, textParam } from '../contract/query.js'
import { controlRoute, type Route } from './route.js'
import { accountsOf, ownAccountKey, visible, visibleOne } from './viewer-scope.js'
import type { Viewer } from '../domain/team-tokens.js'

const E164 = /^\+[0-9]{8,15}$/

function checkNumber(number: string): string {
  if (!E164.test(number))
    throw new ApiError('invalid_phone', '`number` must be a phone number in E.164 format, like +14155550123.', 'number')
  return number
}

const accountParam = textParam('account', 'Only this account.')

/** The accounts whose opt-outs a viewer lists: `account` if given (nothing when a team does not own it), else the team's, else all. */
function optOutAccounts(viewer: Viewer, account: string | undefined): ReadonlySet<string> | undefined {
  const own = accountsOf(viewer)
  if (account === undefined) return own
  return own === undefined || own.has(account) ? new Set([account]) : new Set()
}

/** Templates, replies, opt-outs and the webhook inspector under /__sandbox. */
export const conversationRoutes: Route[] = [
  controlRoute({
    method: 'GET',
    path: '/__sandbox/templates',
    operationId: 'listTemplates',
    summary: 'The configured WhatsApp templates',
    description:
      "With `--templates FILE`, every WhatsApp send is checked after the field rules: an unknown `template` or `language` is 400 `invalid_parameter` (param `template` with the closest known names, or `language` with the template's languages); a placeholder without a parameter is 400 `missing_parameter`, a parameter the template lacks 400 `unknown_parameter`, both with param `parameters.<name>`. Without templates (`configured: false`) any name is accepted.",
    response: templateListSchema,
    team: true,
    resolve: ({ sandbox }) => ({
      body: { configured: sandbox.templates !== undefined, data: sandbox.templates?.list() ?? [] },
    }),
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/inbound',
    operationId: 'simulateInbound',
    summary: 'Simulate a reply from a phone',
    description:
      'Captures the reply with `direction: "inbound"` and posts a `message.received` webhook. STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT opt `from` out of the account (a later send to it answers 200 `queued` and fails as `opted out (STOP)`); START, UNSTOP, YES opt it back in; HELP and any other text are captured only. An unknown `key` or `account` is 400 naming it.',
    body: inboundRequestSchema,
    response: inboundResultSchema,
    team: true,
    resolve: ({ sandbox, body, viewer }) => {
      ownAccountKey(viewer, sandbox.keys, body.key, body.account)
      return { body: sandbox.inbound(body) }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/opt-outs',
    operationId: 'listOptOuts',
    summary: 'Numbers opted out, per account, oldest first',
    description: 'Paginated like every list (`page`, `limit` up to 100); `account` narrows it to one account.',
    query: { ...pageQuery, account: accountParam },
    response: optOutListSchema,
    team: true,
    resolve: ({ sandbox, query, viewer }) => {
      const page = query.page ?? 1
      const limit = query.limit ?? 20
      const { data, total } = sandbox.optOuts.page(optOutAccounts(viewer, query.account), (page - 1) * limit, limit)
      return { body: toPage(data, page, limit, total) }
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/opt-outs',
    operationId: 'addOptOut',
    summary: 'Opt a number out of an account',
    body: optOutRequestSchema,
    response: optOutSchema,
    team: true,
    resolve: ({ sandbox, body, viewer }) => {
      const { account } = ownAccountKey(viewer, sandbox.keys, body.key, body.account)
      return {
        body: sandbox.optOuts.add({
          account,
          number: checkNumber(body.number),
          keyword: 'manual',
          at: isoAt(sandbox.now()),
        }),
      }
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__sandbox/opt-outs',
    operationId: 'removeOptOut',
    summary: 'Opt a number back in',
    body: optOutRequestSchema,
    response: okSchema,
    answers: [{ code: 'not_found', description: 'The number is not opted out of that account (`not_found`).' }],
    team: true,
    resolve: ({ sandbox, body, viewer }) => {
      const { account } = ownAccountKey(viewer, sandbox.keys, body.key, body.account)
      if (!sandbox.optOuts.remove(account, checkNumber(body.number)))
        throw new ApiError('not_found', `${body.number} is not opted out of account ${account}.`)
      return { body: { ok: true as const } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/webhooks',
    operationId: 'listWebhookAttempts',
    summary: 'Webhook attempts, newest first',
    description:
      "Each attempt: event, URL, the message it is about, request headers and body, the receiver's status, the first 1 KiB of its answer and the latency, the attempt number and when the next retry is due. Empty when no webhook URL is configured. Beside the page: the webhook `url`, and for the admin the signing `secret` (never for a team token).",
    query: { ...pageQuery, account: accountParam },
    response: webhookAttemptPageSchema,
    team: true,
    resolve: ({ sandbox, query, viewer }) => {
      const page = pageOf(
        visible(viewer, sandbox.webhooks?.attempts.list(query.account) ?? []),
        query.page ?? 1,
        query.limit ?? 20,
      )
      const secret = viewer.role === 'admin' && sandbox.webhooks ? { secret: sandbox.webhooks.secret } : {}
      return { body: { ...page, url: sandbox.webhooks?.url ?? null, ...secret } }
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/webhooks/{id}/replay',
    operationId: 'replayWebhook',
    summary: "Send an attempt's event again, with the same webhook-id",
    response: webhookAttemptSchema,
    answers: [{ code: 'not_found', description: 'No attempt with that id (`not_found`).' }],
    team: true,
    resolve: ({ sandbox, params, viewer }) => {
      const attempt =
        visibleOne(viewer, sandbox.webhooks?.attempts.get(params.id)) && sandbox.webhooks?.replay(params.id)
      if (!attempt)
        throw new ApiError(
          'not_found',
          `No webhook attempt with id "${params.id}". \`GET /__sandbox/webhooks\` lists them (the oldest are dropped past 1,000).`,
        )
      return { body: structuredClone(attempt) }
    },
  }),
]
