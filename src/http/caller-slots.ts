import { SlotShares } from '../domain/fair-share.js'
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
  if (slots === undefined) streams.set(sandbox, (slots = new SlotShares(() => sandbox.maxEventClients, callers(sandbox))))
  return slots
}
