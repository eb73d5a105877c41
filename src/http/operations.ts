import { z } from 'zod'
import { ApiError, retryAfterHeader } from '../domain/errors.js'
import type { SandboxState } from '../domain/sandbox.js'
import { metricsText } from './metrics.js'
import { controlRoute, type Route } from './route.js'

/**
 * Probes and metrics of a shared instance (issue 36, item 6). `livez` and `readyz` are open
 * without a token and say nothing but "ok" (an orchestrator's probe holds no secret, and an
 * answer must not tell a stranger what the sandbox holds); `metrics` is the admin's.
 */

/** Longest `readyz?wait=` honoured. */
export const MAX_READY_WAIT_MS = 60_000

const probeSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Probe' })

/** `5s`, `500ms` or a number of milliseconds, at most {@link MAX_READY_WAIT_MS}. */
const waitParam = z
  .string()
  .regex(/^[0-9]{1,6}(?:ms|s)?$/, {
    error: 'Query parameter `wait` must be a duration like `5s`, `500ms` or `500` (milliseconds), at most 60s.',
  })
  .transform((text) =>
    text.endsWith('ms')
      ? Number(text.slice(0, -2))
      : text.endsWith('s')
        ? Number(text.slice(0, -1)) * 1000
        : Number(text),
  )
  .refine((ms) => ms <= MAX_READY_WAIT_MS, { error: 'Query parameter `wait` may be at most 60s.' })
  .optional()
  .meta({
    description:
      'Wait up to this long for the sandbox to be ready (`5s`, `500ms`), then answer. Default: answer at once.',
  })

/**
 * Resolves true once the sandbox is ready, false after `ms` (0: once the microtasks queued now
 * have run, so a settled `ready` counts) or when the client goes.
 */
function readyWithin(sandbox: SandboxState, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', gone)
      resolve(value)
    }
    const gone = () => done(false)
    const timer = setTimeout(() => done(false), ms)
    signal.addEventListener('abort', gone, { once: true })
    sandbox.ready.then(
      () => done(true),
      () => done(false),
    )
  })
}

export const operationRoutes: Route[] = [
  controlRoute({
    method: 'GET',
    path: '/__sandbox/livez',
    operationId: 'livez',
    summary: 'Liveness probe: the process answers',
    description:
      'Open without a token; answers `{ "ok": true }` whenever the process serves requests, ready or not. Reveals nothing else. The container\'s HEALTHCHECK uses it.',
    response: probeSchema,
    public: true,
    probe: true,
    resolve: () => ({ body: { ok: true as const } }),
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/readyz',
    operationId: 'readyz',
    summary: 'Readiness probe: the store is loaded and the sandbox serves',
    description:
      'Open without a token; `{ "ok": true }` once the sandbox is ready (its store loaded, its seed made), else 503 `not_ready` with `Retry-After`. `wait=5s` holds the answer until ready, at most that long. Reveals nothing else.',
    query: { wait: waitParam },
    response: probeSchema,
    answers: [{ code: 'not_ready', description: 'Not ready yet (`not_ready`): the store is still loading.' }],
    public: true,
    probe: true,
    resolve: async ({ sandbox, query, request }) => {
      if (await readyWithin(sandbox, query.wait ?? 0, request.signal)) return { body: { ok: true as const } }
      throw new ApiError(
        'not_ready',
        'The sandbox is starting (loading its store). Retry shortly, or ask with `?wait=5s`.',
        undefined,
        retryAfterHeader(1),
      )
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/metrics',
    operationId: 'metrics',
    summary: 'Metrics in the Prometheus text format (admin)',
    description:
      "`sendbox_requests_total{route,status}`, `sendbox_messages{channel,status}`, `sendbox_waiters`, `sendbox_event_clients`, `sendbox_store_writes_total{result}`, `sendbox_store_write_seconds` (summary), `sendbox_evictions_total{account}`. The admin token's only: a team token is answered 403.",
    response: { text: 'text/plain; version=0.0.4' },
    resolve: ({ sandbox }) =>
      new Response(metricsText(sandbox), {
        status: 200,
        headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' },
      }),
  }),
]
