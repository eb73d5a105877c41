import { weightOf } from '../domain/channels/index.js'
import type { Health } from '../contract/controls.js'
import type { SandboxState } from '../domain/sandbox.js'
import type { Viewer } from '../domain/team-tokens.js'
import { callerOf, streamSlots, waitSlots } from './caller-slots.js'
import { visible } from './viewer-scope.js'

/**
 * `GET /__sandbox/health` as a team token sees it (issue 36, R10): the counts of its own accounts
 * and its own waits and streams; the caps as they are (they are settings, not anyone's data).
 */
export function healthOf(sandbox: SandboxState, viewer: Viewer): Health {
  const all = sandbox.health()
  if (viewer.role === 'admin') return all
  const messages = visible(viewer, sandbox.outbox.list())
  let evicted = 0
  for (const account of viewer.accounts) evicted += sandbox.outbox.evictedBy.get(account) ?? 0
  const caller = callerOf(viewer)
  return {
    ...all,
    messages: messages.length,
    messages_evicted: evicted,
    outbox_bytes: messages.reduce((sum, message) => sum + weightOf(message), 0),
    waiters: waitSlots(sandbox).heldBy(caller),
    event_clients: streamSlots(sandbox).heldBy(caller),
    requests: visible(viewer, sandbox.journal.list()).length,
    faults: visible(viewer, sandbox.faults.list()).length,
    data: null,
  }
}
