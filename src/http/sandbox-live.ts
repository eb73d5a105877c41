import { z } from 'zod'
import { ApiError } from '../domain/errors.js'
import { cappedWait, DEFAULT_WAIT_MS, MAX_WAIT_MS, tooManyClients } from './capped-wait.js'
import type { SandboxEvent } from '../domain/events.js'
import { SANDBOX_EVENT_TYPES, sandboxEventSchema } from '../contract/events.js'
import { WaitTimeoutError } from '../domain/outbox.js'
import { summarize } from '../domain/channels/index.js'
import { capturedMessageSchema } from '../contract/captured-message.js'
import { millisecondsParam, sinceParam } from '../contract/query.js'
import { messageJson } from './message-json.js'
import { controlRoute, type Route } from './route.js'
import { filterOf, outboxFilterQuery } from './sandbox-controls.js'
import { accountsOf } from './viewer-scope.js'
import { sees, type Viewer } from '../domain/team-tokens.js'
import { callerOf, streamSlots } from './caller-slots.js'

export { DEFAULT_WAIT_MS, MAX_WAIT_MS }
/** A comment line every this many milliseconds keeps an idle event stream (and proxies in between) open. */
export const HEARTBEAT_MS = 15_000
/** Bytes an event stream may hold for a client that reads too slowly; past it the client is dropped. */
export const EVENT_BUFFER_BYTES = 4 * 1024 * 1024

const { since: _filterSince, ...waitFilters } = outboxFilterQuery
void _filterSince

export { sandboxEventSchema }

const encoder = new TextEncoder()

/** Frames already encoded: one per event, shared by every client (N4: each client encoded its own copy). */
const frames = new WeakMap<SandboxEvent, Uint8Array>()

/** One Server-Sent Event: `event: <type>` and one `data:` line of JSON (JSON never holds a raw newline). */
function frame(event: SandboxEvent): Uint8Array {
  let bytes = frames.get(event)
  if (bytes === undefined) {
    const data = 'message' in event ? { ...event, message: summarize(event.message) } : event
    bytes = encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`)
    frames.set(event, bytes)
  }
  return bytes
}

/**
 * The event stream of one client: subscribes to the sandbox's events, sends each as it happens,
 * a `: ping` comment every {@link HEARTBEAT_MS}, and cleans up (unsubscribe, timer) when the
 * client cancels the stream, its request is aborted, or it falls {@link EVENT_BUFFER_BYTES}
 * behind — a slow reader is dropped, never buffered without limit.
 */
function eventStream(
  subscribe: (listener: (event: SandboxEvent) => void) => () => void,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  let cleanup = () => {}
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true
        const close = (reason?: string) => {
          if (!open) return
          open = false
          cleanup()
          try {
            if (reason) controller.enqueue(encoder.encode(`: ${reason}\n\n`))
            controller.close()
          } catch {
            // Already cancelled by the client.
          }
        }
        const send = (bytes: Uint8Array) => {
          if (!open) return
          // desiredSize is the room left under the high-water mark: below zero, the client is behind.
          if ((controller.desiredSize ?? 0) < 0)
            return close(`dropped: this client read too slowly (more than ${EVENT_BUFFER_BYTES} bytes waiting)`)
          controller.enqueue(bytes)
        }
        const unsubscribe = subscribe((event) => send(frame(event)))
        const heartbeat = setInterval(() => send(encoder.encode(': ping\n\n')), HEARTBEAT_MS)
        ;(heartbeat as { unref?: () => void }).unref?.()
        const onAbort = () => close()
        cleanup = () => {
          unsubscribe()
          clearInterval(heartbeat)
          signal.removeEventListener('abort', onAbort)
        }
        signal.addEventListener('abort', onAbort, { once: true })
        // A first line at once, so that clients (and proxies) see the stream open.
        controller.enqueue(
          encoder.encode(
            `: sendbox events (${SANDBOX_EVENT_TYPES.join(', ')}); a ping every ${HEARTBEAT_MS / 1000} s\n\n`,
          ),
        )
        if (signal.aborted) onAbort()
      },
      cancel() {
        cleanup()
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: EVENT_BUFFER_BYTES }),
  )
}

/** Long-poll and Server-Sent Events under /__sandbox. */
export const sandboxLiveRoutes: Route[] = [
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/wait',
    operationId: 'waitForMessage',
    summary: 'Wait for a message that matches the filters',
    description: `Answers at once with the newest matching message captured at or after \`since\` (default: any time), else as soon as one is captured or moves to a matching status; after \`timeout\` ms, 408 \`wait_timeout\` with the filter and the nearest misses. A waiter whose client disconnects is dropped at once. Costs nothing while it waits (event-driven, no polling).`,
    query: {
      ...waitFilters,
      since: sinceParam,
      timeout: millisecondsParam('timeout', MAX_WAIT_MS, DEFAULT_WAIT_MS, 'How long to wait, in milliseconds.'),
    },
    response: capturedMessageSchema,
    answers: [
      {
        code: 'wait_timeout',
        description:
          'No matching message in time (`wait_timeout`); the message names the filter and the nearest misses.',
      },
      {
        code: 'too_many_clients',
        description:
          'The server holds as many waits as it may (`too_many_clients`, `--max-waiters`, default 1,000) and none matches yet; `Retry-After` says when to try again.',
      },
    ],
    team: true,
    resolve: async ({ sandbox, query, request, viewer }) => {
      const { since, timeout, ...filters } = query
      const accounts = accountsOf(viewer)
      try {
        // Full (or this caller holds its share): what is already there answers, else 503 rather than one more held wait.
        const message = await cappedWait(
          sandbox,
          filterOf(filters),
          { timeout: timeout ?? DEFAULT_WAIT_MS, since, signal: request.signal, accounts },
          callerOf(viewer),
        )
        return { json: messageJson(message) }
      } catch (error) {
        if (error instanceof WaitTimeoutError) throw new ApiError('wait_timeout', error.message)
        throw error
      }
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/__sandbox/events',
    operationId: 'streamEvents',
    summary: 'Live events (Server-Sent Events)',
    description: `\`text/event-stream\`: \`event: <type>\` and \`data: <JSON>\` for ${SANDBOX_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}; a \`: ping\` comment every ${HEARTBEAT_MS / 1000} s. A client more than ${EVENT_BUFFER_BYTES / 1024 / 1024} MiB behind is dropped (the stream ends with a comment saying so).`,
    query: { direction: outboxFilterQuery.direction },
    response: { eventStream: sandboxEventSchema },
    answers: [
      {
        code: 'too_many_clients',
        description:
          'As many event-stream clients as the server allows are connected (`too_many_clients`, `--max-event-clients`, default 1,000); `Retry-After` says when to try again.',
      },
    ],
    team: true,
    resolve: ({ sandbox, request, query, viewer }) => {
      const slots = streamSlots(sandbox)
      const caller = callerOf(viewer)
      if (!slots.take(caller))
        throw tooManyClients(
          slots.total >= sandbox.maxEventClients
            ? `${sandbox.maxEventClients} event-stream clients are connected already (--max-event-clients)`
            : `this caller holds its share of the ${sandbox.maxEventClients} event-stream clients (--max-event-clients, shared fairly between the admin and each team token)`,
        )
      const subscribe = (listener: (event: SandboxEvent) => void) => {
        // `direction` keeps only the message events of that direction (every other event passes).
        // A team token gets the events of its accounts' messages and requests only (and resets).
        const unsubscribe = sandbox.events.subscribe((event) => {
          if (viewer.role === 'team' && !teamSees(viewer, event)) return
          if (viewer.role === 'team' && event.type === 'reset' && event.accounts !== undefined)
            event = { ...event, accounts: event.accounts.filter((a) => sees(viewer, a)) }
          if (query.direction === undefined || !('message' in event) || event.message.direction === query.direction)
            listener(event)
        })
        let left = false
        return () => {
          unsubscribe()
          if (left) return // the stream's cleanup can run twice (closed, then cancelled)
          left = true
          slots.release(caller)
        }
      }
      return new Response(eventStream(subscribe, request.signal), {
        status: 200,
        headers: {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache',
          'X-Accel-Buffering': 'no',
        },
      })
    },
  }),
]

/** Whether a team viewer gets this event: its accounts' messages (deleted ones included) and requests, and resets. */
function teamSees(viewer: Viewer, event: SandboxEvent): boolean {
  switch (event.type) {
    case 'message.captured':
    case 'message.status':
      return sees(viewer, event.message.account)
    case 'message.deleted':
      return sees(viewer, event.account)
    case 'request':
      return sees(viewer, event.entry.account)
    case 'reset':
      // Another team's reset of its own accounts is none of this team's business (issue 36, R10).
      return event.accounts === undefined || event.accounts.some((account) => sees(viewer, account))
  }
}
