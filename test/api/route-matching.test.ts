import { getResponse, type HttpHandler } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, describe, expect, it } from 'vitest'
import { RouteHandler, withoutCallFrames } from '../../src/http/route-handler.js'
import { ROUTES, type RouteMethod } from '../../src/http/routes.js'
import { createSandbox } from '../../src/index.js'
import { auth } from '../helpers.js'

/**
 * The contract of the `HttpHandler.parse` override (handlers/route-handler.ts, see
 * docs/decisions/msw-parse.md): over a table of URLs, exactly one handler of a sandbox claims each
 * one — the route it is meant for, with the params it is meant to get — or none, and msw hands
 * our parse result to the resolver. If msw changes how it calls `parse`/`predicate` or passes
 * params, this file fails first.
 */

/**
 * The handler msw runs for a request — the first in list order that claims it: its route's
 * label, `catch-all <tree>`, or `none`. No two routes may claim one request, and the two
 * catch-alls never overlap.
 */
async function claimant(handlers: HttpHandler[], method: string, url: string): Promise<string> {
  const request = new Request(url, { method })
  const claiming: string[] = []
  for (const handler of handlers) {
    if (await handler.test({ request }))
      claiming.push(
        handler instanceof RouteHandler
          ? (handler.label ?? `catch-all ${handler.info.header.split(' ')[1]}`)
          : handler.info.header,
      )
  }
  const routes = claiming.filter((c) => !c.startsWith('catch-all'))
  const catchAlls = claiming.filter((c) => c.startsWith('catch-all'))
  if (routes.length > 1 || catchAlls.length > 1)
    throw new Error(`${method} ${url} is claimed by ${claiming.join(', ')}`)
  return claiming[0] ?? 'none'
}

const O = 'https://api.sendbox.test'
const TABLE: Array<[method: string, url: string, expected: string]> = [
  // The routes, exactly.
  ['POST', `${O}/v1/email/send`, `POST ${O}/v1/email/send`],
  ['POST', `${O}/v1/sms/send?x=1#frag`, `POST ${O}/v1/sms/send`],
  ['GET', `${O}/v1/subscribers`, `GET ${O}/v1/subscribers`],
  ['HEAD', `${O}/v1/subscribers`, `GET ${O}/v1/subscribers`],
  ['GET', `${O}/v1/subscribers/sub_1`, `GET ${O}/v1/subscribers/{id}`],
  ['PUT', `${O}/v1/subscribers/sub_1`, `PUT ${O}/v1/subscribers/{id}`],
  ['GET', `${O}/__sandbox/messages`, `GET ${O}/__sandbox/messages`],
  ['GET', `${O}/__sandbox/messages/msg_1/html`, `GET ${O}/__sandbox/messages/{id}/html`],
  // A literal path wins over a template of its method, at the origin and under the base path.
  ['GET', `${O}/__sandbox/messages/wait`, `GET ${O}/__sandbox/messages/wait`],
  ['GET', `${O}/v1/__sandbox/messages/wait`, `GET ${O}/__sandbox/messages/wait`],
  ['GET', `${O}/__sandbox/messages/msg_1`, `GET ${O}/__sandbox/messages/{id}`],
  ['GET', `${O}/v1/__sandbox/messages/msg_1`, `GET ${O}/__sandbox/messages/{id}`],
  ['GET', `${O}/v1/__sandbox/health`, `GET ${O}/__sandbox/health`],
  ['GET', `https://API.SENDBOX.TEST:443/v1/subscribers`, `GET ${O}/v1/subscribers`], // host case and default port are URL normalisation
  // Near misses: case, trailing slash, escapes, empty params, extra segments, wrong method → the catch-alls.
  ['POST', `${O}/v1/SMS/send`, `catch-all ${O}/v1/*`],
  ['POST', `${O}/V1/sms/send`, `catch-all ${O}/v1/*`],
  ['POST', `${O}/v1/sms/send/`, `catch-all ${O}/v1/*`],
  ['POST', `${O}/v1/sm%73/send`, `catch-all ${O}/v1/*`],
  ['GET', `${O}/v1/subscribers/`, `catch-all ${O}/v1/*`],
  ['GET', `${O}/v1/subscribers//`, `catch-all ${O}/v1/*`],
  ['GET', `${O}/v1/subscribers/a/b`, `catch-all ${O}/v1/*`],
  ['GET', `${O}/v1/subscribers/%zz`, `catch-all ${O}/v1/*`],
  ['PATCH', `${O}/v1/subscribers/sub_1`, `catch-all ${O}/v1/*`],
  ['GET', `${O}/v1`, `catch-all ${O}/v1/*`],
  ['GET', `${O}/V1/%zz`, `catch-all ${O}/v1/*`],
  ['GET', `${O}/__sandbox/Messages`, `catch-all ${O}/__sandbox/*`],
  ['GET', `${O}/__sandbox/messages/`, `catch-all ${O}/__sandbox/*`],
  ['GET', `${O}/__SANDBOX/%zz`, `catch-all ${O}/__sandbox/*`],
  ['GET', `${O}/v1/__sandbox/nothing`, `catch-all ${O}/__sandbox/*`],
  // Not the sandbox's at all.
  ['GET', `${O}/v10/subscribers`, 'none'],
  ['GET', `${O}/favicon.ico`, 'none'],
  ['GET', `${O}/__sandboxes`, 'none'],
  ['GET', `http://api.sendbox.test/v1/subscribers`, 'none'],
  ['GET', `https://api.sendbox.test.evil/v1/subscribers`, 'none'],
  ['GET', `https://other.test/v1/subscribers`, 'none'],
]

/** Every method a route may have, and HEAD (answered by a GET route). A new method is a compile error here. */
const METHODS = [...Object.keys({ GET: 0, POST: 0, PUT: 0, DELETE: 0 } satisfies Record<RouteMethod, 0>), 'HEAD']

/** Whether a path template claims a path: literal segments equal, a `{param}` any non-empty segment. */
function claims(template: string, path: string): boolean {
  const want = template.split('/')
  const got = path.split('/')
  return (
    want.length === got.length &&
    want.every((segment, i) => (segment.startsWith('{') ? got[i] !== '' : segment === got[i]))
  )
}

/** The route of a scope and method that claims a path: the one with the most literal segments (a literal wins). */
function ownerOf(scope: string, method: string, path: string) {
  const literals = (template: string) => template.split('/').filter((s) => !s.startsWith('{')).length
  return ROUTES.filter((r) => r.scope === scope && r.method === method && claims(r.path, path)).sort(
    (a, b) => literals(b.path) - literals(a.path),
  )[0]
}

/**
 * The table read off `ROUTES`, so a new route needs no row: each route's path (its parameters
 * filled) is claimed, for every method, by the route of that method whose template claims it (a
 * literal segment wins over a parameter; HEAD: the GET route), else by its scope's catch-all. At the origin and, for a
 * control, under the base path too.
 */
function derivedRows(origin: string, basePath: string): Array<[method: string, url: string, expected: string]> {
  const rows: Array<[string, string, string]> = []
  const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}')
  // One row set per path shape; `p_0`… fill the parameters (no literal segment looks like that).
  const paths = new Map(ROUTES.map((route) => [`${route.scope} ${shape(route.path)}`, route]))
  for (const route of paths.values()) {
    const filled = route.path.replace(/\{[^}]+\}/g, (_, i: number) => `p_${i}`)
    const prefixes = route.scope === 'api' ? [basePath] : ['', basePath]
    for (const method of METHODS) {
      const owner = ownerOf(route.scope, method === 'HEAD' ? 'GET' : method, filled)
      const expected = owner
        ? `${owner.method} ${origin}${route.scope === 'api' ? basePath : ''}${owner.path}`
        : `catch-all ${origin}${route.scope === 'api' ? basePath : '/__sandbox'}/*`
      for (const prefix of prefixes) rows.push([method, `${origin}${prefix}${filled}`, expected])
    }
  }
  return rows
}

describe('every route of the table, every method: its route or the catch-all', () => {
  const sandbox = createSandbox()
  afterAll(() => sandbox.dispose())
  const rows = derivedRows(O, '/v1')

  it('covers every route', () => {
    expect(rows.length).toBeGreaterThanOrEqual(ROUTES.length * METHODS.length)
    for (const route of ROUTES)
      expect(rows.map((row) => row[2])).toContain(
        `${route.method} ${O}${route.scope === 'api' ? '/v1' : ''}${route.path}`,
      )
  })

  it.each(rows)('%s %s → %s', async (method, url, expected) => {
    expect(await claimant(sandbox.handlers, method, url)).toBe(expected)
  })
})

describe('the parse override claims exactly what each route intends', () => {
  const sandbox = createSandbox()
  afterAll(() => sandbox.dispose())

  it.each(TABLE)('%s %s → %s', async (method, url, expected) => {
    expect(await claimant(sandbox.handlers, method, url)).toBe(expected)
  })

  it('msw passes the params our parse found to the resolver, percent-decoded', async () => {
    const response = await getResponse(
      sandbox.handlers,
      new Request(`${O}/v1/subscribers/sub%20%C3%A9`, { headers: auth() }),
    )
    expect(response?.status).toBe(404)
    expect(((await response!.json()) as { error: { message: string } }).error.message).toContain('"sub é"')
  })
})

describe('a base URL without a path: the controls are not shadowed by the API catch-all', () => {
  const sandbox = createSandbox({ baseUrl: 'https://api.example.com' })
  afterAll(() => sandbox.dispose())
  const E = 'https://api.example.com'

  it.each([
    ['POST', `${E}/sms/send`, `POST ${E}/sms/send`],
    ['GET', `${E}/__sandbox/health`, `GET ${E}/__sandbox/health`],
    ['GET', `${E}/__sandbox/nothing`, `catch-all ${E}/__sandbox/*`],
    ['GET', `${E}/`, `catch-all ${E}/*`],
    ['GET', `${E}/anything`, `catch-all ${E}/*`],
  ])('%s %s → %s', async (method, url, expected) => {
    expect(await claimant(sandbox.handlers, method, url)).toBe(expected)
  })

  it('GET /__sandbox/health answers 200 under setupServer (was 401 from the API catch-all)', async () => {
    const server = setupServer(...sandbox.handlers)
    server.listen({ onUnhandledRequest: 'error' })
    try {
      const health = await fetch(`${E}/__sandbox/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({ ok: true })
      expect((await fetch(`${E}/subscribers`, { headers: auth() })).status).toBe(200)
    } finally {
      server.close()
    }
  })
})

describe('two sandboxes on one origin (/v1 and /v2)', () => {
  const v1 = createSandbox({ baseUrl: 'https://api.example.com/v1' })
  const v2 = createSandbox({ baseUrl: 'https://api.example.com/v2' })
  afterAll(() => {
    v1.dispose()
    v2.dispose()
  })

  it("each answers its own controls under <baseUrl>/__sandbox; the origin's /__sandbox is the first one's", async () => {
    const server = setupServer(...v1.handlers, ...v2.handlers)
    server.listen({ onUnhandledRequest: 'error' })
    try {
      const send = (base: string) =>
        fetch(`${base}/sms/send`, {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify({ to: '+14155550123', message: base }),
        })
      expect((await send('https://api.example.com/v2')).status).toBe(200)
      const count = async (url: string) =>
        ((await (await fetch(url)).json()) as { pagination: { total: number } }).pagination.total
      expect(await count('https://api.example.com/v2/__sandbox/messages')).toBe(1)
      expect(await count('https://api.example.com/v1/__sandbox/messages')).toBe(0)
      expect(await count('https://api.example.com/__sandbox/messages')).toBe(0) // v1's: first in the list
      expect(v2.outbox.list()).toHaveLength(1)
    } finally {
      server.close()
    }
  })
})

describe("the handlers are built without msw's call frames (route-handler.ts withoutCallFrames)", () => {
  it('takes no stack for a handler, and leaves Error.stackTraceLimit as it found it', () => {
    const before = Error.stackTraceLimit
    Error.stackTraceLimit = 37
    try {
      const sandbox = createSandbox()
      const handlers = sandbox.handlers
      sandbox.dispose()
      expect(Error.stackTraceLimit).toBe(37)
      expect(handlers.length).toBeGreaterThan(ROUTES.length)
      // msw notes the declaring frame of a handler from a stack; with none taken there is none.
      for (const handler of handlers) expect(handler.info.callFrame).toBeUndefined()
      // A handler made outside it still gets a frame (the limit was restored). Which file msw
      // names depends on its version and where it is installed, never the user's test: sendbox's
      // own file or msw's chunk, which is why the sandbox's handlers skip taking it.
      const outside = new RouteHandler(
        ['GET'],
        O,
        `${O}/x`,
        () => ({}),
        async () => new Response(),
      )
      expect(outside.info.callFrame).toMatch(/:\d+:\d+$/)
    } finally {
      Error.stackTraceLimit = before
    }
  })

  it('restores the limit when building a handler throws', () => {
    const before = Error.stackTraceLimit
    expect(() =>
      withoutCallFrames(() => {
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(Error.stackTraceLimit).toBe(before)
  })
})
