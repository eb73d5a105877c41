import { http, type HttpHandler } from 'msw'
import { z } from 'zod'
import { ApiError } from '../src/domain/errors.js'
import { faultSpecSchema } from '../src/domain/faults.js'
import { CHANNELS, MESSAGE_STATUSES, type OutboxFilter } from '../src/domain/outbox.js'
import { RESET_SCOPES, type ResetScope, type SandboxState } from '../src/domain/sandbox.js'
import { pageOf } from '../src/schemas/pagination.js'
import { controlJson, hasMalformedEscape, readJsonObject } from './guard.js'
import { pageQuery } from './query.js'

/** The origin-relative prefix of the sandbox-only controls. */
export function controlsBase(sandbox: SandboxState): string {
  return `${new URL(sandbox.baseUrl).origin}/__sandbox`
}

/** Runs a control resolver; ApiErrors become the wire error, anything else a 500 without a stack. */
async function control(run: () => Response | Promise<Response>): Promise<Response> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof ApiError) return controlJson(error.status, error.toBody())
    if (error instanceof z.ZodError) {
      const issue = error.issues[0]
      const param = issue.path.join('.')
      const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message)
      const message = issue.code === 'unrecognized_keys'
        ? `Unknown parameter \`${issue.keys[0]}\`. A fault takes status, code, path, method, times, probability and delay_ms.`
        : missing
          ? `Missing required parameter \`${param}\`.`
          : issue.code === 'invalid_type' ? `\`${param}\` must be a ${issue.expected}.` : issue.message
      const code = issue.code === 'unrecognized_keys' ? 'unknown_parameter' : missing ? 'missing_parameter' : 'invalid_parameter'
      return controlJson(400, { error: { code, message, ...(param ? { param } : {}) } })
    }
    console.error('[sendbox] unexpected error in a sandbox control:', error)
    return controlJson(500, { error: { code: 'internal_error', message: 'Unexpected sandbox failure.' } })
  }
}

function oneOf<T extends string>(url: URL, name: string, allowed: readonly T[]): T | undefined {
  const value = url.searchParams.get(name)
  if (value === null) return undefined
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ApiError(400, 'invalid_parameter', `Query parameter \`${name}\` must be one of ${allowed.join(', ')} (got "${value.slice(0, 50)}").`, name)
  }
  return value as T
}

function sinceOf(url: URL): number | undefined {
  const value = url.searchParams.get('since')
  if (value === null) return undefined
  const ms = /^[0-9]+$/.test(value) ? Number(value) : Date.parse(value)
  if (!Number.isFinite(ms)) {
    throw new ApiError(400, 'invalid_parameter', `Query parameter \`since\` must be an ISO 8601 time or Unix milliseconds (got "${value.slice(0, 50)}").`, 'since')
  }
  return ms
}

/** The 401 answer when an admin token is configured and the request lacks it; undefined to let it through. */
function adminRefusal(sandbox: SandboxState, request: Request): Response | undefined {
  const token = sandbox.adminToken
  if (token === undefined) return undefined // fall through to the controls
  const bearer = /^bearer[ \t]+(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1]
  const given = request.headers.get('x-sendbox-admin-token') ?? bearer
  if (given !== undefined && given !== null && timingSafeEqual(given, token)) return undefined
  return controlJson(401, { error: { code: 'unauthorized', message: 'The sandbox controls need the admin token: send `Authorization: Bearer <admin token>` or `X-Sendbox-Admin-Token: <admin token>` (see --admin-token).' } })
}

/** Answers 401 unless the request carries the admin token (when one is configured). */
function adminGuard(sandbox: SandboxState): HttpHandler {
  const base = controlsBase(sandbox)
  return http.all(`${base}/*`, ({ request }) => adminRefusal(sandbox, request))
}

/**
 * /__sandbox paths with a malformed percent-escape (`/__sandbox/%zz`), which make msw's path
 * matcher throw (a 500 with a stack trace in-process): admin guard, then 404. Registered first.
 */
function malformedControlPath(sandbox: SandboxState): HttpHandler {
  const origin = new URL(sandbox.baseUrl).origin
  return http.all(({ request }) => {
    const url = new URL(request.url)
    return url.origin === origin && url.pathname.startsWith('/__sandbox/') && hasMalformedEscape(url.pathname)
  }, ({ request }) => adminRefusal(sandbox, request) ?? controlJson(404, { error: { code: 'not_found', message: 'No sandbox control at this path: it holds a malformed percent-escape (a "%" not followed by two hex digits of valid UTF-8).' } }))
}

function timingSafeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0)
  return diff === 0
}

/** Outbox, journal, faults, reset and health under /__sandbox. */
export function sandboxControlHandlers(sandbox: SandboxState): HttpHandler[] {
  const base = controlsBase(sandbox)
  const messageNotFound = (id: string) =>
    new ApiError(404, 'not_found', `No captured message with id "${id}". It may have been cleared or evicted by the outbox cap.`)
  return [
    malformedControlPath(sandbox),
    adminGuard(sandbox),
    http.get(`${base}/health`, () => controlJson(200, sandbox.health())),
    http.get(`${base}/messages`, ({ request }) =>
      control(() => {
        const url = new URL(request.url)
        const { page, limit } = pageQuery(url)
        const filter: OutboxFilter = {
          channel: oneOf(url, 'channel', CHANNELS),
          status: oneOf(url, 'status', MESSAGE_STATUSES),
          to: url.searchParams.get('to') ?? undefined,
          account: url.searchParams.get('account') ?? undefined,
          since: sinceOf(url),
        }
        const all = sandbox.outbox.list(filter)
        return controlJson(200, pageOf(all, page, limit))
      }),
    ),
    http.delete(`${base}/messages`, () =>
      control(() => {
        sandbox.outbox.clear()
        return controlJson(200, { ok: true })
      }),
    ),
    http.get(`${base}/messages/:id/html`, ({ params }) =>
      control(() => {
        const message = sandbox.outbox.get(String(params.id))
        if (message?.channel !== 'email') throw messageNotFound(String(params.id))
        return new Response(message.email.html, {
          status: 200,
          headers: {
            'Content-Type': 'text/html; charset=utf-8',
            // The HTML is the client's: show it, never run its scripts on the sandbox's origin.
            'Content-Security-Policy': "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline' *",
          },
        })
      }),
    ),
    http.get(`${base}/messages/:id`, ({ params }) =>
      control(() => {
        const message = sandbox.outbox.get(String(params.id))
        if (!message) throw messageNotFound(String(params.id))
        return controlJson(200, message)
      }),
    ),
    http.get(`${base}/requests`, ({ request }) =>
      control(() => {
        const url = new URL(request.url)
        const { page, limit } = pageQuery(url)
        const all = sandbox.journal.list({ account: url.searchParams.get('account') ?? undefined })
        return controlJson(200, pageOf(all, page, limit))
      }),
    ),
    http.post(`${base}/reset`, ({ request }) =>
      control(async () => {
        const scope = oneOf(new URL(request.url), 'scope', RESET_SCOPES) as ResetScope | undefined
        await sandbox.reset(scope)
        return controlJson(200, { ok: true, scope: scope ?? 'all' })
      }),
    ),
    http.get(`${base}/faults`, () => controlJson(200, { data: sandbox.faults.list() })),
    http.post(`${base}/faults`, ({ request }) =>
      control(async () => {
        const body = await readJsonObject(request)
        faultSpecSchema.parse(body)
        return controlJson(200, sandbox.faults.add(body as z.input<typeof faultSpecSchema>))
      }),
    ),
    http.delete(`${base}/faults`, () =>
      control(() => {
        sandbox.faults.clear()
        return controlJson(200, { ok: true })
      }),
    ),
    http.all(`${base}/*`, ({ request }) =>
      controlJson(404, { error: { code: 'not_found', message: `No sandbox control ${request.method} ${new URL(request.url).pathname}. See the README's "Sandbox controls".` } }),
    ),
  ]
}
