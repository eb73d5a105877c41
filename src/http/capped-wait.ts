/**
 * Every wait a client can hold on a running sandbox counts against one cap (`--max-waiters`):
 * `GET /__sandbox/messages/wait` and the MCP tools that wait (`wait_for_message`, `wait_for_code`,
 * `wait_for_link` through `/__sandbox/mcp`) both go through {@link cappedWait}.
 */
import { WAIT_TIMEOUT_MS } from '../contract/constants.js'
import type { CapturedMessage } from '../contract/captured-message.js'
import { ApiError, retryAfterHeader } from '../domain/errors.js'
import type { OutboxFilter } from '../domain/outbox-filter.js'
import type { WaitOptions } from '../domain/outbox-wait.js'
import type { SandboxState } from '../domain/sandbox.js'
import { waitSlots } from './caller-slots.js'

/** Longest one wait may wait (`GET /__sandbox/messages/wait`, the MCP waits), in milliseconds. */
export const MAX_WAIT_MS = WAIT_TIMEOUT_MS.max
/** How long a wait waits by default. */
export const DEFAULT_WAIT_MS = WAIT_TIMEOUT_MS.endpoint

/** A 503 in the error shape, with a Retry-After: the cap is full, a slot frees when a client leaves. */
export function tooManyClients(what: string): ApiError {
  return new ApiError(
    'too_many_clients',
    `${what}. Retry in a few seconds, or raise the cap.`,
    undefined,
    retryAfterHeader(5),
  )
}

/**
 * `sandbox.outbox.waitFor`, within the waiter cap and the caller's fair share of it (issue 36,
 * R1: src/http/caller-slots.ts): when `--max-waiters` waits are held already, or this caller holds
 * its share, the newest match already there answers at once, else 503 `too_many_clients` naming the
 * cap (never one more held wait). The wait ends when `options.signal` aborts (its client went away).
 *
 * @param caller who holds the wait: `callerOf(viewer)` (the admin or a team token)
 */
export async function cappedWait(
  sandbox: SandboxState,
  filter: OutboxFilter,
  options: WaitOptions,
  caller = 'admin',
): Promise<CapturedMessage> {
  const slots = waitSlots(sandbox)
  const full = sandbox.outbox.waiting >= sandbox.maxWaiters
  if (full || !slots.take(caller)) {
    const { since, accounts } = options
    const found = sandbox.outbox.first(since === undefined ? filter : { ...filter, since }, accounts)
    if (found) return found
    throw tooManyClients(
      full
        ? `${sandbox.maxWaiters} waits are held already (--max-waiters)`
        : `this caller holds its share of the ${sandbox.maxWaiters} waits (--max-waiters, shared fairly between the admin and each team token)`,
    )
  }
  try {
    return await sandbox.outbox.waitFor(filter, options)
  } finally {
    slots.release(caller)
  }
}
