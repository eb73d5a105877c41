import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { startServer, type RequestLog, type RunningServer } from '../../src/transports/http-server.js'
import { chromiumMissing, launchChromium } from './chromium.js'

/**
 * A web app on one localhost port calls the standalone server on another: the browser enforces
 * CORS for real (preflight for Authorization + JSON, readable headers only when exposed).
 */
describe.skipIf(chromiumMissing)('CORS: a page from another localhost port calls the standalone server', () => {
  let browser: Browser
  let page: Page
  let api: RunningServer
  let app: Server
  let appUrl: string
  const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', limits: { pro: 5 } })
  const seen: RequestLog[] = []

  beforeAll(async () => {
    api = await startServer(sandbox, { port: 0, onRequest: (entry) => seen.push(entry) })
    app = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end('<!doctype html><title>another app</title><p>app</p>')
    })
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    appUrl = `http://localhost:${(app.address() as AddressInfo).port}/`
    browser = await launchChromium()
    page = await browser.newPage()
    await page.goto(appUrl)
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => app?.close(resolve))
    await api?.close()
    sandbox.dispose()
  })

  it('preflights Authorization + Content-Type, then reads the exposed X-RateLimit-* headers', async () => {
    expect(new URL(appUrl).origin).not.toBe(new URL(api.url).origin)
    const answer = await page.evaluate(async (base) => {
      const response = await fetch(`${base}/v1/email/send`, {
        method: 'POST',
        headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
        body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<p>Hi</p>' }),
      })
      return {
        status: response.status,
        body: await response.json(),
        limit: response.headers.get('X-RateLimit-Limit'),
        remaining: response.headers.get('X-RateLimit-Remaining'),
        reset: response.headers.get('X-RateLimit-Reset'),
      }
    }, api.url)
    expect(answer).toMatchObject({ status: 200, body: { success: true, status: 'queued' }, limit: '5', remaining: '4' })
    expect(Number(answer.reset)).toBeGreaterThan(Date.now() / 1000 - 1)
    // The browser really asked first: an OPTIONS preflight reached the server before the POST.
    const preflight = seen.findIndex((e) => e.method === 'OPTIONS' && e.path === '/v1/email/send')
    const post = seen.findIndex((e) => e.method === 'POST' && e.path === '/v1/email/send')
    expect(preflight).toBeGreaterThanOrEqual(0)
    expect(seen[preflight].status).toBe(204)
    expect(post).toBeGreaterThan(preflight)
    expect(sandbox.outbox.list({ channel: 'email' })).toHaveLength(1)
  })

  it('lets the page read Retry-After and the error body of a 429, and the Prefer header through', async () => {
    const answer = await page.evaluate(async (base) => {
      const response = await fetch(`${base}/v1/subscribers`, {
        headers: { Authorization: 'Bearer test_pro', Prefer: 'code=429' },
      })
      return { status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() }
    }, api.url)
    expect(answer.status).toBe(429)
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(answer.body).toMatchObject({ error: { code: 'rate_limit_exceeded' } })
  })

  it('reaches the sandbox controls from the page too', async () => {
    const answer = await page.evaluate(async (base) => {
      const response = await fetch(`${base}/__sandbox/messages?channel=email`)
      return { status: response.status, body: await response.json() }
    }, api.url)
    expect(answer).toMatchObject({ status: 200, body: { pagination: { total: 1 } } })
  })
})
