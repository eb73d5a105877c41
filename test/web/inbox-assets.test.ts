import { existsSync } from 'node:fs'
import { getResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { buildWebInboxOnce } from './support.js'

// The web inbox's files, served in-process by the sandbox's own handlers (no socket).
describe('web inbox files', () => {
  beforeAll(buildWebInboxOnce, 60_000)
  const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', adminToken: 'secret' })
  const get = (path: string, headers: Record<string, string> = {}) =>
    getResponse(sandbox.handlers, new Request(`http://127.0.0.1:4010${path}`, { headers }))

  it("redirects /__sandbox/ui to the inbox, and leaves the origin's / alone in-process", async () => {
    const response = await get('/__sandbox/ui')
    expect(response?.status).toBe(302)
    expect(response?.headers.get('location')).toBe('/__sandbox/ui/')
    // In-process the origin's `/` is the application's (the standalone server redirects it: cli-inbox.test.ts).
    expect(await get('/')).toBeUndefined()
  })

  it('never claims / where the API lives at the root', async () => {
    const rooted = createSandbox({ baseUrl: 'https://api.example.com' })
    const root = await getResponse(rooted.handlers, new Request('https://api.example.com/'))
    expect(root?.status).toBe(401) // the API's catch-all: unknown path, no key
    const page = await getResponse(rooted.handlers, new Request('https://api.example.com/__sandbox/ui/'))
    expect(page?.status).toBe(200)
  })

  it('serves the page with its own CSP, nosniff and no framing, without the admin token', async () => {
    expect(existsSync('dist/web/assets.js')).toBe(true)
    const response = (await get('/__sandbox/ui/'))!
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("frame-src 'self'")
    expect(csp).toContain("img-src 'self' data:")
    expect(csp).not.toContain('unsafe-inline')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await response.text()
    expect(html).toContain('<script type="module" src="./app.js"></script>')
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/) // no inline script
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//) // nothing from elsewhere
  })

  it('serves the bundle and the styles with their types, and answers 304 to a matching ETag', async () => {
    const js = (await get('/__sandbox/ui/app.js'))!
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect((await js.text()).length).toBeGreaterThan(1000)
    const css = (await get('/__sandbox/ui/app.css'))!
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    const again = (await get('/__sandbox/ui/app.js', { 'If-None-Match': js.headers.get('etag')! }))!
    expect(again.status).toBe(304)
    const head = (await getResponse(
      sandbox.handlers,
      new Request('http://127.0.0.1:4010/__sandbox/ui/', { method: 'HEAD' }),
    ))!
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })

  it('answers 404 in the API error shape for anything else under /__sandbox/ui/', async () => {
    for (const path of [
      '/__sandbox/ui/nope.js',
      '/__sandbox/ui/assets.js',
      '/__sandbox/ui/__proto__',
      '/__sandbox/ui/../messages',
    ]) {
      const response = (await get(path))!
      if (path.includes('..')) continue // normalised by URL to /__sandbox/messages: not ours
      expect(response.status, path).toBe(404)
      expect((await response.json()).error.code).toBe('not_found')
    }
  })
})
