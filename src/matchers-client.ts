/**
 * The matchers' path for a `sendbox/client` (a sandbox in another process): asynchronous, so
 * `await expect(client).toHaveSent(filter)`, waiting up to a timeout for the message to come.
 * In-process sandboxes keep the synchronous path in matchers.ts.
 */
import { WAIT_TIMEOUT_MS } from './contract/constants.js'
import type { SandboxClient } from './client/index.js'
import type { OutboxFilter } from './domain/outbox-filter.js'
import { describeMisses } from './domain/outbox.js'
import type { CapturedMessage } from './contract/captured-message.js'

/** Options of a matcher given a client: how long to wait for the messages (default 5000 ms). */
export interface ClientMatchOptions {
  timeout?: number
}

/** A matcher filter, compiled (matchers.ts). */
export interface CompiledFilter {
  outboxFilter: OutboxFilter
  matches: (message: CapturedMessage) => boolean
  /** Whether `matches` reads fields beyond the outbox filter (then each candidate is fetched whole). */
  checksFields: boolean
}

/** Most candidates fetched whole per look when the filter checks message fields. */
const MAX_FETCHED = 200
const DEFAULT_TIMEOUT_MS = WAIT_TIMEOUT_MS.caller

/** A `sendbox/client` (rather than a sandbox or its outbox). */
export function isClient(received: unknown): received is SandboxClient {
  const candidate = received as Partial<SandboxClient> | undefined
  return (
    typeof candidate?.url === 'string' &&
    typeof candidate.outbox?.waitFor === 'function' &&
    typeof candidate.health === 'function'
  )
}

/** The matching messages now: filtered by the server, then (when needed) checked whole here. */
async function matching(client: SandboxClient, compiled: CompiledFilter): Promise<CapturedMessage[]> {
  const listed = (await client.outbox.list(compiled.outboxFilter)) as unknown as CapturedMessage[]
  if (!compiled.checksFields) return listed
  const whole = await Promise.all(listed.slice(0, MAX_FETCHED).map((m) => client.outbox.get(m.message_id)))
  return whole.filter((m): m is CapturedMessage => m !== undefined && compiled.matches(m))
}

/**
 * Looks until `done(found)` or the timeout; between looks it sleeps on the server's long poll
 * (a message of the outbox filter captured, or moved to its status), at most a second at a time.
 */
export async function lookFor(
  client: SandboxClient,
  compiled: CompiledFilter,
  done: (found: CapturedMessage[]) => boolean,
  options: ClientMatchOptions = {},
  wait = true,
): Promise<CapturedMessage[]> {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS
  const deadline = Date.now() + timeout
  for (;;) {
    const started = Date.now()
    const found = await matching(client, compiled)
    const left = deadline - Date.now()
    if (!wait || done(found) || left <= 0) return found
    await client.outbox
      .waitFor(compiled.outboxFilter, { timeout: Math.min(left, 1_000), since: started })
      .catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** The nearest misses, in the words of the in-process matchers. */
export async function clientMissText(client: SandboxClient, compiled: CompiledFilter): Promise<string> {
  const channel = compiled.outboxFilter.channel
  const recent = (await client.outbox.list(channel ? { channel } : {}, { limit: 20 })) as unknown as CapturedMessage[]
  const misses = recent.filter((m) => !compiled.matches(m)).slice(0, 3)
  return describeMisses(compiled.outboxFilter, misses, (await client.health()).messages)
}
