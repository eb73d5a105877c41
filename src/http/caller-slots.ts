import { ApiError, retryAfterHeader } from '../domain/errors.js'
import { SlotShares } from '../domain/fair-share.js'
import { RateLimiter } from '../domain/rate-limiter.js'
import type { SandboxState } from '../domain/sandbox.js'
import type { Viewer } from '../domain/team-tokens.js'

/**
 * The long-polls and event streams each caller holds (issue 36, R1): a caller is a team token or
 * the admin, and each gets a fair share of `--max-waiters` and `--max-event-clients`
 * (src/domain/fair-share.ts), so one team holding its share never makes another's wait a 503.
 */

/** The caller a viewer is, as the slot shares count it. */
export function callerOf(viewer: Viewer): string {
  return viewer.role === 'team' ? `team ${viewer.name}` : 'admin'
}

const waits = new WeakMap<SandboxState, SlotShares<string>>()
const streams = new WeakMap<SandboxState, SlotShares<string>>()

/** Callers that may hold slots: every team and the admin. */
const callers = (sandbox: SandboxState) => () => sandbox.teamTokens.length + 1

/** The sandbox's shares of `--max-waiters` among its callers. */
export function waitSlots(sandbox: SandboxState): SlotShares<string> {
  let slots = waits.get(sandbox)
  if (slots === undefined) waits.set(sandbox, (slots = new SlotShares(() => sandbox.maxWaiters, callers(sandbox))))
  return slots
}

/** The sandbox's shares of `--max-event-clients` among its callers. */
export function streamSlots(sandbox: SandboxState): SlotShares<string> {
  let slots = streams.get(sandbox)
  if (slots === undefined)
    streams.set(sandbox, (slots = new SlotShares(() => sandbox.maxEventClients, callers(sandbox))))
  return slots
}

/** Writing controls a team token may make per minute (issue 36, item 1: 10,000 inbound replies in 13.6 s evicted another team's messages). */
export const TEAM_CONTROL_WRITES_PER_MINUTE = 600

const controlWrites = new WeakMap<SandboxState, RateLimiter>()

/**
 * Throws the API's 429 (with `Retry-After`) when a team token has made more than
 * {@link TEAM_CONTROL_WRITES_PER_MINUTE} writing controls (inbound, replay, faults, reset,
 * opt-outs, deletes) in the last minute. The admin is not limited: it owns the sandbox.
 */
export function takeControlWrite(sandbox: SandboxState, viewer: Viewer, now: number): void {
  if (viewer.role !== 'team') return
  let limiter = controlWrites.get(sandbox)
  if (limiter === undefined)
    controlWrites.set(sandbox, (limiter = new RateLimiter(() => TEAM_CONTROL_WRITES_PER_MINUTE)))
  const decision = limiter.take(callerOf(viewer), now)
  if (!decision.allowed) {
    throw new ApiError(
      'rate_limit_exceeded',
      `The team token "${viewer.name}" made ${TEAM_CONTROL_WRITES_PER_MINUTE} writing controls in the last minute (the limit of a team on a shared sandbox). Retry after ${decision.retryAfter} s (see the Retry-After header).`,
      undefined,
      retryAfterHeader(decision.retryAfter),
    )
  }
}
