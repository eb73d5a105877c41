import type { SandboxClient } from '../client/index.js'
import { summarize } from '../domain/channels/index.js'
import { ApiError } from '../domain/errors.js'
import { accountKey } from '../domain/inbound.js'
import type { SandboxState } from '../domain/sandbox.js'
import { cappedWait } from '../http/capped-wait.js'

/**
 * A sandbox in this process behind the {@link SandboxClient} interface, so the MCP tools (and
 * anything else written against the client) drive it without HTTP: `/__sandbox/mcp` and
 * `sendbox mcp` without `--url` use it. Its waits count against `--max-waiters` as HTTP's do.
 */
export function sandboxAsClient(sandbox: SandboxState, url = sandbox.baseUrl.replace(/\/v1$/, '')): SandboxClient {
  return {
    url,
    health: async () => sandbox.health(),
    outbox: outboxOf(sandbox),
    messages: { checks: (id, options = {}) => sandbox.checks(id, options) },
    requests: {
      list: async ({ account, limit = 100 } = {}) => sandbox.journal.list({ account }).slice(0, limit),
    },
    faults: {
      add: async (spec) => sandbox.faults.add(spec),
      list: async () => sandbox.faults.list(),
      clear: async () => sandbox.faults.clear(),
    },
    clock: {
      advance: async (ms) => sandbox.clock.apply({ advance_ms: ms }),
      freeze: async (frozen = true) => sandbox.clock.apply({ freeze: frozen }),
      reset: async () => sandbox.clock.apply({ reset: true }),
      state: async () => sandbox.clock.state(),
    },
    reset: async (scope) => {
      await sandbox.reset(scope)
      return { ok: true, scope: scope ?? 'all' }
    },
    inbound: async (input) => sandbox.inbound(input),
    optOuts: {
      list: async ({ account } = {}) => sandbox.optOuts.list(account),
    },
    webhooks: {
      list: async ({ account, limit = 100 } = {}) => (sandbox.webhooks?.attempts.list(account) ?? []).slice(0, limit),
      replay: async (id) => {
        const attempt = sandbox.webhooks?.replay(id)
        return attempt ? structuredClone(attempt) : undefined
      },
    },
    subscribers: subscribersOf(sandbox),
  }
}

/** The outbox part of the client: the sandbox's outbox, its waits capped as over HTTP. */
function outboxOf(sandbox: SandboxState): SandboxClient['outbox'] {
  return {
    list: async (filter = {}, { limit = Infinity } = {}) => sandbox.outbox.list(filter).slice(0, limit).map(summarize),
    get: async (id) => sandbox.outbox.get(id),
    waitFor: (filter = {}, options = {}) =>
      cappedWait(sandbox, filter, {
        ...options,
        since: options.since instanceof Date ? options.since.getTime() : options.since,
      }),
    delete: async (id) => sandbox.outbox.delete(id),
    clear: async () => sandbox.outbox.clear(),
  }
}

/** The subscriber part of the client: the account of the key, as the subscriber API takes it. */
function subscribersOf(sandbox: SandboxState): SandboxClient['subscribers'] {
  const accountOfKey = (key: string) => accountKey(sandbox.keys, key, undefined).account
  return {
    list: async (key, { limit = 100 } = {}) => {
      const { data, total } = sandbox.subscribers.list(accountOfKey(key), 1, Math.max(1, Math.min(limit, 100_000)))
      return { data, total }
    },
    get: async (key, id) => {
      try {
        return sandbox.subscribers.get(accountOfKey(key), id)
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return undefined
        throw error
      }
    },
  }
}
