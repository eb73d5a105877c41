/**
 * The guard of the sandbox controls (`/__sandbox/...`): who asks (admin, team, preview token),
 * then the route's query, body and resolver, through the API's error path (guard.ts).
 */
import { sameSecret } from '../domain/admin-token.js'
import { guessingClient } from '../domain/guess-limiter.js'
import { ApiError } from '../domain/errors.js'
import type { SandboxState } from '../domain/sandbox.js'
import { ADMIN_VIEWER, teamViewer, type Viewer } from '../domain/team-tokens.js'
import { jsonAnswer, type Answer, type WireRequest } from './body.js'
import { takeControlWrite } from './caller-slots.js'
import { offeredAdminToken } from './credentials.js'
import { toApiError } from './api-errors.js'
import { answer, parseQuery, readRouteBody, refuseWhileGuessing } from './guard.js'
import { countRequest } from './metrics.js'
import type { Route } from './route.js'

/**
 * Who asks for a control: the admin (the admin token, or anyone on a sandbox with neither an admin
 * token nor team tokens) or the team whose `--team-token` is offered. Throws 401 when either kind
 * of token is configured and none is offered (a wrong guess counts toward the guess limiter).
 */
export function viewerOf(sandbox: SandboxState, request: WireRequest): Viewer {
  const token = sandbox.adminToken
  const given = offeredAdminToken((name) => request.headers.get(name))
  if (token === undefined && sandbox.teamTokens.length === 0) return ADMIN_VIEWER
  const client = guessingClient(request.headers.get('origin'), request.clientAddress)
  refuseWhileGuessing(sandbox, client)
  if (given !== undefined && token !== undefined && sameSecret(given, token)) return ADMIN_VIEWER
  const team = given === undefined ? undefined : teamViewer(sandbox.teamTokens, given)
  if (team) return team
  // Team tokens and no admin token (in-process, or a CLI that did not generate one): nobody else is
  // the admin — a request without a team token gets no control (issue 36, R7).
  if (given !== undefined) sandbox.guesses.miss(client, sandbox.now(), given)
  const needed =
    token === undefined
      ? 'a team token'
      : sandbox.teamTokens.length > 0
        ? 'the admin token or a team token'
        : 'the admin token'
  throw new ApiError(
    'unauthorized',
    `The sandbox controls need ${needed}: send \`Authorization: Bearer <token>\` or \`X-Sendbox-Admin-Token: <token>\` (see --admin-token${sandbox.teamTokens.length > 0 ? ', --team-token' : ''}).`,
  )
}

/** A message-scoped preview token (`?token=`) that opens this one route for this one message. */
function previewTokenAdmits(sandbox: SandboxState, route: Route, url: URL, params: Record<string, string>): boolean {
  const token = url.searchParams.get('token')
  if (!route.previewToken || token === null || params.id === undefined) return false
  return sandbox.outbox.checkPreviewToken(params.id, token)
}

/**
 * Runs one /__sandbox request: admin token (unless the route is public or a preview token
 * admits it) → route → query → body → resolver, through the same error path as the API. Not
 * journaled, not rate limited. `route` is undefined for the catch-all (→ 404 after the guard).
 */
export async function runControlRequest(
  sandbox: SandboxState,
  request: WireRequest,
  url: URL,
  params: Record<string, string>,
  route: Route | undefined,
): Promise<Answer> {
  const answered = await controlAnswer(sandbox, request, url, params, route)
  countRequest(sandbox, route?.operationId, answered.status)
  return answered
}

async function controlAnswer(
  sandbox: SandboxState,
  request: WireRequest,
  url: URL,
  params: Record<string, string>,
  route: Route | undefined,
): Promise<Answer> {
  try {
    const admitted = route?.public === true || (route !== undefined && previewTokenAdmits(sandbox, route, url, params))
    const viewer = admitted ? ADMIN_VIEWER : viewerOf(sandbox, request)
    if (!route) {
      throw new ApiError(
        'not_found',
        `No sandbox control ${request.method} ${url.pathname}. Paths match exactly; see sendbox's docs/controls.md (GET /__sandbox/openapi.json lists them).`,
      )
    }
    if (viewer.role === 'team' && !route.team) {
      throw new ApiError(
        'forbidden',
        `${request.method} ${url.pathname} changes or shows what every account shares; it needs the admin token (the team token "${viewer.name}" sees ${[...viewer.accounts].join(', ')} only).`,
      )
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') takeControlWrite(sandbox, viewer, sandbox.now())
    if (!route.probe) await sandbox.ready
    const query = parseQuery(route, url)
    const { body, raw } = await readRouteBody(route, request, {})
    const result = await route.resolve({
      sandbox,
      request,
      url,
      params,
      query,
      body,
      raw,
      viewer,
      key: undefined as never,
      retryAfter: () => 0,
    })
    if (sandbox.store && request.method !== 'GET') await sandbox.store.settle()
    return answer(result, {}, request, route.status ?? 200)
  } catch (error) {
    const apiError = toApiError(error, request)
    return jsonAnswer(apiError.status, apiError.toBody(), { ...apiError.headers }, request)
  }
}
