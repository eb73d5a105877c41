import { request as httpRequest } from 'node:http'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isBodySchema, type Route } from '../../src/http/route.js'
import { createSandbox } from '../../src/index.js'
import { ROUTES } from '../../src/http/routes.js'
import { startCli, type CliChild } from '../cli-child.js'

/**
 * Issue 27, N1 and N6 and "no input kills the process": every number a route reads — each query
 * parameter and each top-level body field of every route in the table (derived, so a new route is
 * covered without editing this file) — sent at the values that broke things (past the Date range,
 * past 2^53, negative, exponent, NaN spelled out), in-process and against the real CLI (one and
 * two threads). Each answer is 2xx or 4xx in the error shape, and the process answers its health
 * check after each route.
 */
const HOSTILE = [
  '8640000000000001',
  '100000000000000000',
  '9007199254740993',
  '99999999999999999999',
  '-1',
  '1e400',
  'NaN',
  '0',
  '1.5',
  '0x10',
]
const HOSTILE_JSON: unknown[] = [
  8640000000000001,
  1e17,
  9007199254740991,
  1.7976931348623157e308,
  -1,
  -0,
  0.5,
  '1e400',
  1e-300,
]

/** The names of a route's top-level body fields (API bodies: their schema's shape; controls: a zod object). */
function bodyFields(route: Route): string[] {
  if (!route.body) return []
  const schema = isBodySchema(route.body) ? route.body.schema : route.body
  const shape =
    (schema as { shape?: Record<string, unknown> }).shape ??
    (
      z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>
      }
    ).properties
  return Object.keys(shape ?? {})
}

/** A concrete path for a route (`{id}` → a made-up id). */
function pathOf(route: Route, apiBase: string): string {
  const path = route.path.replace(/\{[^}]+\}/g, 'msg_unknown')
  return route.scope === 'api' ? `${apiBase}${path}` : path
}

interface Probe {
  method: string
  path: string
  body?: string
}

function probes(apiBase: string): Probe[] {
  const list: Probe[] = []
  for (const route of ROUTES) {
    if (route.path.endsWith('/events') || route.path.endsWith('/mcp')) continue // streams: checked by their own suites
    const path = pathOf(route, apiBase)
    for (const name of Object.keys(route.query ?? {})) {
      for (const value of HOSTILE)
        list.push({ method: route.method, path: `${path}?${name}=${encodeURIComponent(value)}&timeout=0` })
    }
    for (const field of bodyFields(route)) {
      for (const value of HOSTILE_JSON)
        list.push({ method: route.method, path, body: JSON.stringify({ [field]: value }) })
    }
  }
  return list
}

function check(probe: Probe, status: number, text: string): string | undefined {
  if (status >= 500 && status !== 503)
    return `${probe.method} ${probe.path} ${probe.body ?? ''} → ${status} ${text.slice(0, 300)}`
  if (status >= 400 && !/^\{"error":\{"code":"[a-z_]+","message":/.test(text))
    return `${probe.method} ${probe.path} → ${status} without the error shape: ${text.slice(0, 200)}`
  return undefined
}

describe.each([
  ['one thread', []],
  ['two threads', ['--threads', '2']],
])('the standalone server (%s) survives every hostile number', (_label, extra) => {
  let cli: CliChild
  beforeAll(async () => {
    cli = await startCli(['--no-ui', '--port', '0', '--delivery-ms', '0', ...extra])
  })
  afterAll(() => cli?.kill())

  it('answers each in the error shape (or 2xx) and stays up', async () => {
    const problems: string[] = []
    const list = probes('/v1')
    // Every query parameter and body field of the table: page, limit, since, timeout, advance_ms, times, delay_ms, …
    expect(list.length).toBeGreaterThan(300)
    for (const name of ['page', 'since', 'timeout', 'advance_ms', 'delay_ms', 'times', 'probability'])
      expect(
        list.some((p) => p.path.includes(`?${name}=`) || p.body?.includes(`"${name}"`)),
        name,
      ).toBe(true)
    for (const probe of list) {
      const response = await fetch(`${cli.origin}${probe.path}`, {
        method: probe.method,
        headers: { Authorization: 'Bearer test_enterprise', 'Content-Type': 'application/json' },
        body: probe.body,
      })
      const problem = check(probe, response.status, await response.text())
      if (problem) problems.push(problem)
    }
    expect(problems).toEqual([])
    expect((await fetch(`${cli.origin}/__sandbox/health`)).status).toBe(200)
    expect(cli.child.exitCode).toBeNull()
  }, 120_000)

  it('N1: a since past the Date range is a 400 naming it, and the process lives on', async () => {
    const response = await fetch(`${cli.origin}/__sandbox/messages/wait?since=8640000000000001&timeout=0`)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      error: { code: 'invalid_parameter', param: 'since', message: expect.stringMatching(/9999-12-31/) },
    })
    expect((await fetch(`${cli.origin}/__sandbox/health`)).status).toBe(200)
  })

  it('N6: an advance past year 9999 is a 400 that changes nothing; sends, reset and clock reset keep working', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${cli.origin}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer test_pro' },
        body: JSON.stringify(body),
      })
    const before = (await (await fetch(`${cli.origin}/__sandbox/clock`)).json()) as { offset_ms: number }
    const refused = await post('/__sandbox/clock', { advance_ms: 9007199254740991, freeze: true })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_parameter', param: 'advance_ms' } })
    const after = (await (await fetch(`${cli.origin}/__sandbox/clock`)).json()) as {
      offset_ms: number
      frozen: boolean
    }
    expect(after).toMatchObject({ frozen: false })
    expect(Math.abs(after.offset_ms - before.offset_ms)).toBeLessThan(1000)
    expect((await post('/v1/sms/send', { to: '+14155550123', message: 'still here' })).status).toBe(200)
    expect((await post('/__sandbox/reset', {})).status).toBe(200)
    expect((await post('/__sandbox/clock', { reset: true })).status).toBe(200)
  })
})

describe('fidelity over HTTP', () => {
  let cli: CliChild
  beforeAll(async () => {
    cli = await startCli(['--no-ui', '--port', '0', '--delivery-ms', '0'])
  })
  afterAll(() => cli?.kill())

  /** node:http, because fetch refuses a GET with a body. */
  const getWithBody = (path: string, contentType: string, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        `${cli.origin}${path}`,
        {
          method: 'GET',
          headers: {
            Authorization: 'Bearer test_pro',
            'Content-Type': contentType,
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = ''
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (text += chunk))
            .on('end', () => resolve({ status: res.statusCode!, text }))
        },
      )
      req.on('error', reject)
      req.end(body)
    })

  it('a GET with a non-JSON body is 400 invalid_content_type (the reference: every body is JSON); with a JSON one it is answered', async () => {
    const plain = await getWithBody('/v1/subscribers', 'text/plain', 'hello')
    expect(plain.status).toBe(400)
    expect(JSON.parse(plain.text)).toMatchObject({ error: { code: 'invalid_content_type' } })
    expect((await getWithBody('/v1/subscribers', 'application/json', '{}')).status).toBe(200)
  })

  it('the base-URL form of the controls takes its body, and refuses a foreign page, as the origin form does', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${cli.origin}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    const clock = await post('/v1/__sandbox/clock', { advance_ms: 1000 })
    expect(clock.status).toBe(200)
    expect(((await clock.json()) as { offset_ms: number }).offset_ms).toBeGreaterThanOrEqual(1000)
    const fault = await post('/v1/__sandbox/faults', { status: 503, path: '/v1/sms/send', times: 1 })
    expect(fault.status).toBe(200)
    expect(await fault.json()).toMatchObject({ status: 503, remaining: 1 })
    await fetch(`${cli.origin}/v1/__sandbox/faults`, { method: 'DELETE' })
    await fetch(`${cli.origin}/v1/email/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'ana@example.com', subject: 'Keep me', html: '<p>x</p>' }),
    })
    // A foreign page's simple POST (no body, no preflight) must not reset the sandbox by the base-URL form.
    const foreign = await fetch(`${cli.origin}/v1/__sandbox/reset`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example' },
    })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden_origin' } })
    const health = (await (await fetch(`${cli.origin}/__sandbox/health`)).json()) as { messages: number }
    expect(health.messages).toBe(1)
  })

  it('page is echoed exactly up to 1,000,000,000 and refused above, never clamped', async () => {
    const get = (page: string) =>
      fetch(`${cli.origin}/v1/subscribers?page=${page}`, { headers: { Authorization: 'Bearer test_pro' } })
    expect(((await (await get('1000000000')).json()) as { pagination: { page: number } }).pagination.page).toBe(
      1_000_000_000,
    )
    expect(await (await get('1000000001')).json()).toMatchObject({
      error: { code: 'invalid_parameter', param: 'page' },
    })
  })
})

describe('in-process, the same inputs reject the call naming the option, never an uncaught exception', () => {
  const sandbox = createSandbox({ deliveryMs: 0 })
  const server = setupServer(...sandbox.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  it('waitFor with a since past the Date range rejects with a RangeError', async () => {
    await expect(sandbox.outbox.waitFor({ channel: 'sms' }, { since: 1e17, timeout: 0 })).rejects.toThrow(RangeError)
    await expect(sandbox.outbox.waitFor({ channel: 'sms' }, { since: 1e17, timeout: 0 })).rejects.toThrow(
      /options\.since must be between/,
    )
    await expect(sandbox.outbox.waitFor({ since: 8640000000000001 }, { timeout: 0 })).rejects.toThrow(
      /filter\.since must be between/,
    )
    expect(() => sandbox.outbox.list({ since: Number.NaN })).toThrow(RangeError)
  })

  it('clock.advance past year 9999 throws a RangeError and moves nothing; the API still answers', async () => {
    const before = sandbox.clock.state().offset_ms
    expect(() => sandbox.clock.advance(9007199254740991)).toThrow(RangeError)
    expect(sandbox.clock.state().offset_ms).toBe(before)
    const response = await fetch('https://api.sendbox.test/v1/sms/send', {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: '+14155550123', message: 'hi' }),
    })
    expect(response.status).toBe(200)
  })

  it('answers every hostile number in-process as over HTTP', async () => {
    const problems: string[] = []
    for (const probe of probes('https://api.sendbox.test/v1').filter(
      (p) => p.method !== 'GET' || p.body === undefined,
    )) {
      const url = probe.path.startsWith('http') ? probe.path : `https://api.sendbox.test${probe.path}`
      const response = await fetch(url, {
        method: probe.method,
        headers: { Authorization: 'Bearer test_enterprise', 'Content-Type': 'application/json' },
        body: probe.method === 'GET' ? undefined : probe.body,
      })
      const problem = check(probe, response.status, await response.text())
      if (problem) problems.push(problem)
    }
    expect(problems).toEqual([])
  }, 120_000)
})
