import { getResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { auth, standalone } from '../helpers.js'

/** Issue 14 items 8–12: what a test suite using sendbox in-process got wrong, or hung on. */

describe('a relative baseUrl (item 8)', () => {
  afterEach(() => {
    delete (globalThis as { location?: unknown }).location
  })

  it('is a clear error in Node, not "Invalid URL"', () => {
    expect(() => createSandbox({ baseUrl: '/api/v1' })).toThrow(TypeError)
    expect(() => createSandbox({ baseUrl: '/api/v1' })).toThrow(
      /baseUrl "\/api\/v1" is relative.*browser \(setupWorker\).*absolute URL, like "http:\/\/localhost\/api\/v1"/,
    )
  })

  it('resolves against the page in a browser (setupWorker), controls included', async () => {
    // What a browser has and Node lacks: the page's location.
    ;(globalThis as { location?: unknown }).location = { origin: 'http://localhost:5173' }
    const sandbox = createSandbox({ baseUrl: '/api/v1' })
    try {
      const sent = await getResponse(
        sandbox.handlers,
        new Request('http://localhost:5173/api/v1/sms/send', {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify({ to: '+14155550123', message: 'hi' }),
        }),
      )
      expect(sent?.status).toBe(200)
      const health = await getResponse(sandbox.handlers, new Request('http://localhost:5173/__sandbox/health'))
      expect(health?.status).toBe(200)
      const doc = (await (await getResponse(
        sandbox.handlers,
        new Request('http://localhost:5173/__sandbox/openapi.json'),
      ))!.json()) as { servers: Array<{ url: string }> }
      expect(doc.servers[0].url).toBe('/api/v1')
    } finally {
      sandbox.dispose()
    }
  })
})

describe("a user handler that read the body before the sandbox's (item 10)", () => {
  it('answers a clear 500 saying the body was already read by another handler', async () => {
    const sandbox = createSandbox()
    const server = setupServer(
      // Reads the body without cloning, then falls through (returns nothing).
      http.post(`${sandbox.baseUrl}/email/send`, async ({ request }) => {
        await request.json()
      }),
      ...sandbox.handlers,
    )
    server.listen({ onUnhandledRequest: 'error' })
    try {
      const res = await fetch(`${sandbox.baseUrl}/email/send`, {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: 'x' }),
      })
      expect(res.status).toBe(500)
      const { error } = (await res.json()) as { error: { code: string; message: string } }
      expect(error.code).toBe('internal_error')
      expect(error.message).toMatch(/already read by another handler/)
      expect(error.message).not.toMatch(/bug in sendbox/)
    } finally {
      server.close()
      sandbox.dispose()
    }
  })
})

describe('HEAD (item 12)', () => {
  it('answers like GET, without a body, in-process and standalone', async () => {
    const sandbox = createSandbox()
    const inProcess = await getResponse(
      sandbox.handlers,
      new Request(`${sandbox.baseUrl}/subscribers`, { method: 'HEAD', headers: auth() }),
    )
    expect(inProcess?.status).toBe(200)
    expect(inProcess?.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(inProcess?.body).toBeNull()
    const unknown = await getResponse(
      sandbox.handlers,
      new Request(`${sandbox.baseUrl}/nothing`, { method: 'HEAD', headers: auth() }),
    )
    expect(unknown?.status).toBe(404)
    expect(unknown?.body).toBeNull()
    const control = await getResponse(
      sandbox.handlers,
      new Request(`${new URL(sandbox.baseUrl).origin}/__sandbox/health`, { method: 'HEAD' }),
    )
    expect(control?.status).toBe(200)
    expect(control?.body).toBeNull()
    sandbox.dispose()

    const server = await standalone()
    try {
      const res = await fetch(`${server.base}/subscribers`, { method: 'HEAD', headers: auth() })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('')
    } finally {
      await server.close()
    }
  })
})

describe('the default clock (item 9)', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reads Date.now() at call time: vi.useFakeTimers / vi.setSystemTime after createSandbox() are followed', async () => {
    const sandbox = createSandbox({ deliveryMs: 0 })
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2031-02-03T04:05:06Z'))
    try {
      const res = await getResponse(
        sandbox.handlers,
        new Request(`${sandbox.baseUrl}/sms/send`, {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify({ to: '+14155550123', message: 'hi' }),
        }),
      )
      expect(res?.status).toBe(200)
      expect(sandbox.outbox.list()[0].created_at).toBe('2031-02-03T04:05:06.000Z')
      expect(res?.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2031, 1, 3, 4, 6, 6) / 1000))
    } finally {
      sandbox.dispose()
    }
  })

  it('answers a send under fake timers when the email is over 64 KB (derived ahead in turns) and reads its code', async () => {
    const sandbox = createSandbox({ deliveryMs: 0 })
    vi.useFakeTimers()
    try {
      const html = `<p>Your code is 482913.</p><p>${'Long newsletter text. '.repeat(5_000)}</p>`
      expect(html.length).toBeGreaterThan(64 * 1024)
      const res = await getResponse(
        sandbox.handlers,
        new Request(`${sandbox.baseUrl}/email/send`, {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify({ to: 'ana@example.com', subject: 'News', html }),
        }),
      )
      expect(res?.status).toBe(200)
      expect(sandbox.outbox.list()[0].codes).toEqual(['482913'])
    } finally {
      sandbox.dispose()
    }
  })
})

describe('reset scope (item 11)', () => {
  it('reset("everything") throws a TypeError naming the valid scopes (HTTP answers 400)', async () => {
    const sandbox = createSandbox()
    try {
      await expect(sandbox.reset('everything' as never)).rejects.toThrow(TypeError)
      await expect(sandbox.reset('everything' as never)).rejects.toThrow(
        /subscribers, messages, limits, faults, journal/,
      )
      const res = await getResponse(
        sandbox.handlers,
        new Request(`${new URL(sandbox.baseUrl).origin}/__sandbox/reset?scope=everything`, { method: 'POST' }),
      )
      expect(res?.status).toBe(400)
    } finally {
      sandbox.dispose()
    }
  })
})

describe('CORS preflight (item 12)', () => {
  it('allows X-Sendbox-Admin-Token, so a page can call a guarded /__sandbox', async () => {
    const server = await standalone({ adminToken: 'adm_cors_1' })
    try {
      const pre = await fetch(`${server.running.url}/__sandbox/messages`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-sendbox-admin-token',
        },
      })
      expect(pre.status).toBe(204)
      expect(pre.headers.get('access-control-allow-headers') ?? '').toMatch(/X-Sendbox-Admin-Token/i)
    } finally {
      await server.close()
    }
  })
})
