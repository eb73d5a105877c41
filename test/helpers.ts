import { getResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSandbox, type Sandbox, type SandboxOptions } from '../src/index.js'
import { startServer, type RunningServer } from '../src/transports/http-server.js'

export const BASE = 'https://api.sendbox.test/v1'
export const ORIGIN = 'https://api.sendbox.test'

/** JSON request headers with a bearer key. */
export function auth(key = 'test_pro', extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra }
}

/** A fake clock tests advance instead of sleeping. */
export function fakeClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)) {
  let now = start
  return {
    now: () => now,
    advance(ms: number) {
      now += ms
    },
    set(ms: number) {
      now = ms
    },
  }
}

/**
 * An in-process sandbox under msw's `setupServer`, and a `call` that sends through global fetch.
 * Close it with `dispose()`.
 */
export function inProcess(options: SandboxOptions = {}) {
  const sandbox = createSandbox(options)
  const server = setupServer(...sandbox.handlers)
  server.listen({ onUnhandledRequest: 'error' })
  const base = sandbox.baseUrl
  return {
    sandbox,
    server,
    base,
    /** Sends a request to `<baseUrl><path>`; a non-string body is JSON-encoded. */
    call(method: string, path: string, body?: unknown, headers: Record<string, string> = auth()) {
      return fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      })
    },
    dispose() {
      server.close()
      sandbox.dispose()
    },
  }
}

/** The standalone server on an ephemeral loopback port. */
export async function standalone(
  options: SandboxOptions = {},
): Promise<{ sandbox: Sandbox; running: RunningServer; base: string; close: () => Promise<void> }> {
  const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', ...options })
  const running = await startServer(sandbox, { port: 0 })
  return {
    sandbox,
    running,
    base: `${running.url}/v1`,
    close: async () => {
      await running.close()
      sandbox.dispose()
    },
  }
}

/**
 * A second (third, …) sandbox in the same test file. msw allows one active `setupServer` per
 * process — closing a second one restores global fetch for the first — so extra sandboxes are
 * called through msw's `getResponse` over their handlers instead of through global fetch.
 */
export function direct(options: SandboxOptions = {}) {
  const sandbox = createSandbox(options)
  return {
    sandbox,
    async call(
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = auth(),
    ): Promise<Response> {
      const request = new Request(`${sandbox.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      })
      const response = await getResponse(sandbox.handlers, request)
      if (!response) throw new Error(`no handler answered ${method} ${path}`)
      return response
    },
    dispose() {
      sandbox.dispose()
    },
  }
}
