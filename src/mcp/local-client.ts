import type { SandboxClient } from '../client/index.js'
import { summarize } from '../domain/channels/index.js'
import type { SandboxState } from '../domain/sandbox.js'

/**
 * A sandbox in this process behind the {@link SandboxClient} interface, so the MCP tools (and
 * anything else written against the client) drive it without HTTP: `/__sandbox/mcp` and
 * `sendbox mcp` without `--url` use it.
 */
export function sandboxAsClient(sandbox: SandboxState, url = sandbox.baseUrl.replace(/\/v1$/, '')): SandboxClient {
  return {
    url,
    health: async () => sandbox.health(),
    outbox: {
      list: async (filter = {}, { limit = Infinity } = {}) => sandbox.outbox.list(filter).slice(0, limit).map(summarize),
      get: async (id) => sandbox.outbox.get(id),
      waitFor: (filter = {}, options = {}) =>
        sandbox.outbox.waitFor(filter, { ...options, since: options.since instanceof Date ? options.since.getTime() : options.since }),
      delete: async (id) => sandbox.outbox.delete(id),
      clear: async () => sandbox.outbox.clear(),
    },
    messages: {
      checks: (id, options = {}) => sandbox.checks(id, options),
    },
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
  }
}
