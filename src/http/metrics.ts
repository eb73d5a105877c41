import { CHANNELS, MESSAGE_STATUSES } from '../contract/constants.js'
import type { SandboxState } from '../domain/sandbox.js'
import { streamSlots } from './caller-slots.js'

/**
 * `GET /__sandbox/metrics` (issue 36, item 6): what a shared instance's operator watches, in the
 * Prometheus text format (version 0.0.4). Counters of requests are kept per sandbox as they are
 * answered (one map increment); everything else is read from the sandbox when scraped.
 */

/** Requests answered, by route (its operationId, `unmatched` for none), then by status. */
const requestCounts = new WeakMap<SandboxState, Map<string, Map<number, number>>>()

/**
 * Counts one answered request (the guard chain calls it for the API and the controls): two map
 * lookups by the route's own name and the status (a key made of both was a new string to hash on
 * every request).
 */
export function countRequest(sandbox: SandboxState, route: string | undefined, status: number): void {
  let byRoute = requestCounts.get(sandbox)
  if (byRoute === undefined) requestCounts.set(sandbox, (byRoute = new Map()))
  const name = route ?? 'unmatched'
  let byStatus = byRoute.get(name)
  if (byStatus === undefined) byRoute.set(name, (byStatus = new Map()))
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
}

/** A label value as the text format wants it: backslash, quote and line feed escaped. */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

function family(
  lines: string[],
  name: string,
  type: 'counter' | 'gauge' | 'summary',
  help: string,
  samples: Array<[string, number]>,
): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
  for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`)
}

/** The metrics text of one sandbox. */
export function metricsText(sandbox: SandboxState): string {
  const lines: string[] = []
  const requests: Array<[string, number]> = []
  for (const [route, byStatus] of requestCounts.get(sandbox) ?? [])
    for (const [status, n] of byStatus) requests.push([`{route="${label(route)}",status="${status}"}`, n])
  family(lines, 'sendbox_requests_total', 'counter', 'Requests answered, by route (operationId) and status.', requests)
  const messages = new Map<string, number>()
  for (const channel of CHANNELS) for (const status of MESSAGE_STATUSES) messages.set(`${channel} ${status}`, 0)
  for (const message of sandbox.outbox.list())
    messages.set(
      `${message.channel} ${message.status}`,
      (messages.get(`${message.channel} ${message.status}`) ?? 0) + 1,
    )
  family(
    lines,
    'sendbox_messages',
    'gauge',
    'Captured messages kept, by channel and status.',
    [...messages].map(([key, n]) => {
      const [channel, status] = key.split(' ')
      return [`{channel="${channel}",status="${status}"}`, n]
    }),
  )
  family(lines, 'sendbox_waiters', 'gauge', 'Waits for a message held now (long-polls and in-process waits).', [
    ['', sandbox.outbox.waiting],
  ])
  family(lines, 'sendbox_event_clients', 'gauge', 'Event-stream clients connected now.', [
    ['', streamSlots(sandbox).total],
  ])
  const writes = sandbox.store?.writes
  family(lines, 'sendbox_store_writes_total', 'counter', 'Store transactions (--data), by result.', [
    ['{result="ok"}', writes?.ok ?? 0],
    ['{result="failed"}', writes?.failed ?? 0],
  ])
  family(lines, 'sendbox_store_write_seconds', 'summary', 'Time spent writing store transactions.', [
    ['_sum', writes?.seconds ?? 0],
    ['_count', (writes?.ok ?? 0) + (writes?.failed ?? 0)],
  ])
  family(
    lines,
    'sendbox_evictions_total',
    'counter',
    'Messages evicted by the outbox caps, by account.',
    [...sandbox.outbox.evictedBy].map(([account, n]) => [`{account="${label(account)}"}`, n]),
  )
  return `${lines.join('\n')}\n`
}
