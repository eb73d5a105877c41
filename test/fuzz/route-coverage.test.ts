import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../src/http/routes.js'
import { ENDPOINTS } from './endpoints.js'

/**
 * The fuzz suite's endpoint list is hand-made (each endpoint has its own oracle), so nothing would
 * notice a route the route table gains: this test does. Every route that takes input (a body, a
 * query or a path parameter) is fuzzed, or named here with the reason it is not.
 */
const NOT_FUZZED: Record<string, string> = {
  'DELETE /__sandbox/messages/{id}': 'an id only: the same lookup as GET /__sandbox/messages/{id}, which is fuzzed',
  'GET /__sandbox/messages/{id}/html':
    'an id and a flag; its HTML and CSP are attacked in test/browser/preview-policy.test.ts',
  'GET /__sandbox/messages/{id}/preview': 'an id only, the lookup of GET /__sandbox/messages/{id}',
  'GET /__sandbox/messages/{id}/checks':
    "an id, an enum and a flag; hostile HTML and bodies are the checks suites' (test/checks)",
  'GET /__sandbox/messages/{id}/screenshot.png':
    'an id, a bounded width, an enum and a flag, each refused in test/screenshots/screenshot.test.ts; a fuzz case that passed them would cost a Chromium render',
  'GET /__sandbox/messages/wait':
    'the outbox filters of GET /__sandbox/messages (fuzzed) plus a bounded timeout (test/api/sandbox-live.test.ts)',
  'GET /__sandbox/events': 'one enum filter; the stream is attacked in test/abuse/fan-out.test.ts',
  'POST /__sandbox/clock': 'four optional fields, each checked in test/api/sandbox-live.test.ts and the MCP tests',
  'POST /__sandbox/opt-outs': 'a number and an account, the checks of POST /__sandbox/inbound (fuzzed)',
  'DELETE /__sandbox/opt-outs': 'a number and an account, the checks of POST /__sandbox/inbound (fuzzed)',
  'GET /__sandbox/opt-outs': 'one account filter',
  'GET /__sandbox/webhooks': 'a page and an account filter, the paging of GET /__sandbox/requests (fuzzed)',
  'POST /__sandbox/mcp': 'JSON-RPC, parsed by the MCP SDK; test/mcp covers malformed messages',
  'GET /__sandbox/readyz': 'one bounded duration, checked in test/api/operations.test.ts',
}

describe('fuzz coverage of the route table', () => {
  it('fuzzes every route that takes input, or says why not', () => {
    const fuzzed = new Set(ENDPOINTS.map((e) => e.name))
    const missing = ROUTES.filter(
      (route) => route.body !== undefined || route.query !== undefined || route.path.includes('{'),
    )
      .map((route) => `${route.method} ${route.scope === 'api' ? `/v1${route.path}` : route.path}`)
      .filter((name) => !fuzzed.has(name) && NOT_FUZZED[name] === undefined)
    expect(missing, 'routes that take input, neither fuzzed (test/fuzz/endpoints.ts) nor listed in NOT_FUZZED').toEqual(
      [],
    )
    const stale = Object.keys(NOT_FUZZED).filter(
      (name) => !ROUTES.some((r) => `${r.method} ${r.scope === 'api' ? `/v1${r.path}` : r.path}` === name),
    )
    expect(stale, 'NOT_FUZZED names a route the table no longer has').toEqual([])
  })
})
