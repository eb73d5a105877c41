import { z } from 'zod'
import { ApiError } from '../domain/errors.js'
import { faultSpecSchema } from '../domain/faults.js'
import { ClockNotControllableError, parseClockBody } from '../domain/clock.js'
import { summarize } from '../domain/channels/index.js'
import { CHANNELS, MESSAGE_STATUSES, type OutboxFilter } from '../domain/outbox.js'
import { maskKey } from '../domain/plans.js'
import { RESET_SCOPES, type ResetScope } from '../domain/sandbox.js'
import { capturedMessageSchema, capturedMessageSummarySchema, DIRECTIONS } from '../contract/captured-message.js'
import {
  clockChangeSchema,
  clockStateSchema,
  faultListSchema,
  faultSchema,
  healthSchema,
  keyListSchema,
  whoamiSchema,
  okSchema,
  resetResultSchema,
} from '../contract/controls.js'
import { journalEntrySchema } from '../contract/journal.js'
import { pageOf, paginated, toPage } from '../contract/pagination.js'
import { enumParam, flagParam, pageQuery, sinceParam, textParam } from '../contract/query.js'
import { hasRemoteContent } from '../domain/remote-content.js'
import { previewBanner, previewHeaders, withBanner } from './preview-policy.js'
import { withScheme } from './preview-scheme.js'
import { PREVIEW_SCHEMES } from '../contract/preview.js'
import { messageJson } from './message-json.js'
import { healthOf } from './team-health.js'
import { controlRoute, type Route } from './route.js'
import { accountsOf, checkOwnAccount, visible, visibleOne } from './viewer-scope.js'
import { ACCOUNT_RESET_SCOPES, type AccountResetScope } from '../domain/sandbox.js'

const messageNotFound = (id: string) =>
  new ApiError(
    'not_found',
    `No captured message with id "${id}". It may have been cleared or evicted by the outbox cap.`,
  )

const accountParam = textParam('account', "Only this account (an API key's account; by default the key itself).")

/** The outbox filters of `GET /__sandbox/messages` (and `/messages/wait`, whose `since` is the wait's). */
export const outboxFilterQuery = {
  channel: enumParam('channel', CHANNELS, 'Only this channel.'),
  to: textParam(
    'to',
    'Exact recipient, case-insensitive. A `+` sent unencoded (`?to=+1415…`) arrives as a space, which is read as `+`.',
  ),
  status: enumParam('status', MESSAGE_STATUSES, 'Only messages in this lifecycle status.'),
  since: sinceParam,
  account: accountParam,
  q: textParam(
    'q',
    'Words that must all appear, in any order, case-insensitive, in recipient, sender, subject, text, template and its parameters ("maria reset").',
  ),
  from: textParam('from', 'Case-insensitive substring of the sender (`Name <address>`, or an SMS sender id).'),
  subject: textParam('subject', 'Case-insensitive substring of the email subject.'),
  template: textParam('template', 'The WhatsApp template name, exactly.'),
  direction: enumParam('direction', DIRECTIONS, '`outbound` (sent through the API) or `inbound` (a simulated reply).'),
}

/** The filter the validated query asks for (parameters that were not given are left out). */
export function filterOf(query: Partial<Record<keyof typeof outboxFilterQuery, unknown>>): OutboxFilter {
  const filter: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && name in outboxFilterQuery) filter[name] = value
  }
  return filter as OutboxFilter
}

/** Outbox, journal, faults, reset, health and the OpenAPI document under /__sandbox. */
export const sandboxControlRoutes: Route[] = [
  controlRoute({
    method: 'GET',
    path: '/__sandbox/health',
    operationId: 'sandboxHealth',
    summary: 'Health and sizes of the outbox, journal and faults',
    description:
      'A team token gets the counts of its own accounts (messages, bytes, evictions, requests, faults) and its own waits and event streams; the caps as configured; `data` null.',
    response: healthSchema,
    team: true,
    resolve: ({ sandbox, viewer }) => ({ body: healthOf(sandbox, viewer) }),
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/whoami',
    operationId: 'whoami',
    summary: 'Who the token names: the admin or a team, and the accounts it sees',
    response: whoamiSchema,
    team: true,
    resolve: ({ sandbox, viewer }) => ({
      body:
        viewer.role === 'team'
          ? { role: 'team' as const, name: viewer.name, accounts: [...viewer.accounts] }
          : { role: 'admin' as const, name: null, accounts: sandbox.accounts() },
    }),
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages',
    operationId: 'listCapturedMessages',
    summary: 'Captured messages, newest first',
    description:
      'Every account unless `account` is given. Each item is a summary: no `request`, no email `html`, `text` cut to 2000 characters (`text_truncated`), at most 100 `links` (`links_total`); `GET /__sandbox/messages/{id}` has the whole message.',
    query: { ...pageQuery, ...outboxFilterQuery },
    response: paginated(capturedMessageSummarySchema, 'CapturedMessagePage'),
    team: true,
    resolve: ({ sandbox, query, viewer }) => {
      const { page, limit, ...filter } = query
      // From the newest, counting from the index where it can: flat in the outbox's size (issue 37).
      const found = sandbox.outbox.page(filterOf(filter), accountsOf(viewer), page ?? 1, limit ?? 20)
      return { body: toPage(found.data.map(summarize), page ?? 1, limit ?? 20, found.total) }
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__sandbox/messages',
    operationId: 'clearCapturedMessages',
    summary: 'Clear the outbox',
    description: "A team token clears its accounts' messages only.",
    response: okSchema,
    team: true,
    resolve: async ({ sandbox, viewer }) => {
      const accounts = accountsOf(viewer)
      if (accounts === undefined) sandbox.outbox.clear()
      else await sandbox.resetAccounts(accounts, 'messages')
      return { body: { ok: true as const } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/{id}',
    operationId: 'getCapturedMessage',
    summary: 'One captured message with its status history',
    response: capturedMessageSchema,
    team: true,
    resolve: ({ sandbox, params, viewer }) => {
      const message = visibleOne(viewer, sandbox.outbox.get(params.id))
      if (!message) throw messageNotFound(params.id)
      return { json: messageJson(message) }
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__sandbox/messages/{id}',
    operationId: 'deleteCapturedMessage',
    summary: 'Delete one captured message',
    response: okSchema,
    team: true,
    resolve: ({ sandbox, params, viewer }) => {
      if (!visibleOne(viewer, sandbox.outbox.get(params.id)) || !sandbox.outbox.delete(params.id))
        throw messageNotFound(params.id)
      return { body: { ok: true as const } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/{id}/html',
    operationId: 'getCapturedMessageHtml',
    summary: 'The HTML body of a captured email',
    description:
      "Served with a strict `Content-Security-Policy` (`sandbox`: its scripts never run on the sandbox's origin; nothing remote unless `remote=1`; `frame-ancestors 'self'`), `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`. A message-scoped preview `token` (the web inbox gets it) opens it without the admin token.",
    previewToken: true,
    query: {
      token: textParam('token', "The message's preview token: opens this one preview without the admin token."),
      remote: flagParam(
        'remote',
        'Let the email load images, styles and fonts from http(s) URLs (blocked by default).',
      ),
      banner: flagParam(
        'banner',
        '`0` leaves out the one-line "remote content blocked" notice (the web inbox shows its own, with a button). It shows only when the email has remote content.',
      ),
      scheme: enumParam(
        'scheme',
        PREVIEW_SCHEMES,
        "Show the email as a client in this colour scheme would (default: as sent, in the browser's own scheme): `dark` turns its `prefers-color-scheme: dark` styles on, `light` off; `dark-forced` inverts its colours as Gmail's apps and Outlook.com do, images kept. See docs/decisions/dark-preview.md.",
      ),
    },
    response: { html: true },
    team: true,
    resolve: ({ sandbox, params, query, url, viewer }) => {
      const message = visibleOne(viewer, sandbox.outbox.get(params.id))
      if (message?.channel !== 'email') throw messageNotFound(params.id)
      const remote = query.remote === true
      const withRemote = new URL(url)
      withRemote.searchParams.set('remote', '1')
      // The banner links to the same URL with remote=1 (token kept), relative so it stays on this origin.
      const blocked = !remote && query.banner !== false && hasRemoteContent(message.email.html)
      const banner = blocked ? previewBanner(false, `${withRemote.pathname}${withRemote.search}`) : ''
      const html = query.scheme === undefined ? message.email.html : withScheme(message.email.html, query.scheme)
      return new Response(withBanner(html, banner), { status: 200, headers: previewHeaders({ remote }) })
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/{id}/preview',
    operationId: 'getCapturedMessagePreview',
    summary: 'The preview token and URL of a captured email',
    description:
      'What the web inbox frames when an admin token is required: an iframe cannot send the token header, so it loads `html_url`, whose message-scoped `token` opens this one preview and nothing else.',
    response: z.object({ token: z.string(), html_url: z.string() }).meta({ id: 'EmailPreview' }),
    team: true,
    resolve: ({ sandbox, params, viewer }) => {
      const message = visibleOne(viewer, sandbox.outbox.get(params.id))
      const token = message?.channel === 'email' ? sandbox.outbox.previewToken(params.id) : undefined
      if (token === undefined) throw messageNotFound(params.id)
      return {
        body: {
          token,
          html_url: `/__sandbox/messages/${encodeURIComponent(params.id)}/html?token=${encodeURIComponent(token)}`,
        },
      }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/requests',
    operationId: 'listRequests',
    summary: 'The request journal, newest first',
    query: { ...pageQuery, account: accountParam },
    description:
      "Each entry: method, path, query, status, duration, error code and message, account, masked key, the request body (4 KiB at most) and, for errors, the answer's body.",
    response: paginated(journalEntrySchema, 'JournalPage'),
    team: true,
    resolve: ({ sandbox, query, viewer }) => ({
      body: pageOf(
        visible(viewer, sandbox.journal.list({ account: query.account })),
        query.page ?? 1,
        query.limit ?? 20,
      ),
    }),
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/reset',
    operationId: 'resetSandbox',
    summary: 'Back to the seeded state',
    description: `Subscribers, outbox, journal, rate-limit windows and faults; or only the part named by \`scope\`. A team token resets its own accounts: their messages, subscribers, faults and opt-outs (scopes ${ACCOUNT_RESET_SCOPES.map((s) => `\`${s}\``).join(', ')}); the other scopes are shared by every account and answer it 403 \`forbidden\`.`,
    query: {
      scope: enumParam('scope', RESET_SCOPES as unknown as [ResetScope, ...ResetScope[]], 'Reset only this part.'),
    },
    response: resetResultSchema,
    team: true,
    resolve: async ({ sandbox, query, viewer }) => {
      const scope: ResetScope | 'all' = query.scope ?? 'all'
      if (viewer.role === 'team') {
        if (query.scope !== undefined && !(ACCOUNT_RESET_SCOPES as readonly string[]).includes(query.scope)) {
          throw new ApiError(
            'forbidden',
            `scope=${query.scope} is shared by every account: it needs the admin token. A team token resets ${ACCOUNT_RESET_SCOPES.join(', ')} of its accounts (${[...viewer.accounts].join(', ')}).`,
            'scope',
          )
        }
        await sandbox.resetAccounts(viewer.accounts, query.scope as AccountResetScope | undefined)
        return { body: { ok: true as const, scope } }
      }
      await sandbox.reset(query.scope)
      return { body: { ok: true as const, scope } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/faults',
    operationId: 'listFaults',
    summary: 'Faults in force',
    description: 'A team token sees the faults of its accounts only.',
    response: faultListSchema,
    team: true,
    resolve: ({ sandbox, viewer }) => ({ body: { data: visible(viewer, sandbox.faults.list()) } }),
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/faults',
    operationId: 'addFault',
    summary: 'Inject a failure',
    description:
      '`path` is the request path as the server sees it, base path included (`/v1/sms/send`), matched exactly. `times` defaults to unlimited, `probability` to 1. A forced 429 carries the `Retry-After` a real one would at that instant.',
    body: faultSpecSchema,
    response: faultSchema,
    team: true,
    resolve: ({ sandbox, raw, body, viewer }) => {
      const spec = raw as z.input<typeof faultSpecSchema>
      if (viewer.role === 'team') {
        const [only, ...more] = viewer.accounts
        if (body.account === undefined && more.length > 0) {
          throw new ApiError(
            'missing_parameter',
            `A team token's fault names one of its accounts (${[...viewer.accounts].join(', ')}) in \`account\`.`,
            'account',
          )
        }
        const account = body.account ?? only!
        checkOwnAccount(viewer, account, 'account')
        return { body: sandbox.faults.add({ ...spec, account }) }
      }
      return { body: sandbox.faults.add(spec) }
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/__sandbox/faults',
    operationId: 'clearFaults',
    summary: 'Clear every fault',
    description: 'A team token clears the faults of its accounts only.',
    response: okSchema,
    team: true,
    resolve: ({ sandbox, viewer }) => {
      if (viewer.role === 'team') sandbox.faults.clearAccounts(viewer.accounts)
      else sandbox.faults.clear()
      return { body: { ok: true as const } }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/clock',
    operationId: 'getClock',
    summary: 'Sandbox time',
    response: clockStateSchema,
    team: true,
    resolve: ({ sandbox }) => ({ body: sandbox.clock.state() }),
  }),
  controlRoute({
    method: 'POST',
    path: '/__sandbox/clock',
    operationId: 'setClock',
    summary: 'Move, freeze or reset sandbox time',
    description:
      '`{ "advance_ms": N }` moves sandbox time forward (lifecycle steps come due and their webhooks fire in order, rate-limit windows slide, timestamps follow); `{ "freeze": true|false }`; `{ "reset": true }` goes back to the real clock. Several at once apply reset → freeze → advance. A sandbox created with its own `now` option answers 400: that function rules its time.',
    body: clockChangeSchema,
    response: clockStateSchema,
    resolve: ({ sandbox, raw }) => {
      try {
        // The schema has checked each field; the domain's parse adds "at least one" (missing_parameter).
        return { body: sandbox.clock.apply(parseClockBody(raw)) }
      } catch (error) {
        if (error instanceof ClockNotControllableError) throw new ApiError('invalid_parameter', error.message)
        throw error
      }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/keys',
    operationId: 'listKeys',
    summary: 'The API keys in force, with plan, limit and live use',
    description: 'Keys starting with `test_` in full (they are public), every other key masked (`live…23`).',
    response: keyListSchema,
    team: true,
    resolve: ({ sandbox, viewer }) => ({
      body: {
        data: visible(viewer, sandbox.keyUsage()).map((k) => ({
          key: k.key.startsWith('test_') ? k.key : maskKey(k.key),
          plan: k.plan,
          plan_name: k.planName,
          account: k.account,
          limit: k.limit,
          used: k.used,
        })),
      },
    }),
  }),
]
