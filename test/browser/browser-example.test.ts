import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// The example's own dev server: the test builds and serves the page exactly as the README does.
import { startDevServer } from '../../examples/browser/dev-server.mjs'
import { chromiumMissing, launchChromium } from './chromium.js'

describe.skipIf(chromiumMissing)(
  'examples/browser: sandbox.handlers under msw setupWorker in headless Chromium',
  () => {
    let browser: Browser
    let page: Page
    let server: { url: string; stop: () => Promise<void> }
    const pageErrors: string[] = []

    beforeAll(async () => {
      ;[server, browser] = await Promise.all([startDevServer({ port: 0 }), launchChromium()])
      page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(error.message))
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text())
      })
    })
    afterAll(async () => {
      await browser?.close()
      await server?.stop()
    })

    it('sends an email through the service worker and shows it in the outbox until delivered', async () => {
      await page.goto(server.url)
      await page.waitForSelector('#worker-state[data-ready="true"]', { timeout: 15_000 })
      // Seeded subscribers need faker, imported lazily: that works in the browser bundle too.
      await expect
        .poll(() => page.textContent('#subscribers'), { timeout: 10_000 })
        .toMatch(/^3 subscribers: \w+, \w+, \w+$/)

      const fromWorker = page.waitForResponse((response) => response.url() === 'https://api.sendbox.test/v1/email/send')
      await page.fill('input[name="subject"]', 'Shipped from Chromium')
      await page.click('button[type="submit"]')
      const response = await fromWorker
      // Answered by the service worker: no network, no DNS for api.sendbox.test.
      expect(response.fromServiceWorker()).toBe(true)
      expect(response.status()).toBe(200)

      await expect
        .poll(() => page.textContent('#result'))
        .toMatch(/^200 \{"success":true,"message_id":"msg_[A-Za-z0-9]+","status":"queued"\}$/)
      const item = page.locator('#outbox li').first()
      await expect.poll(() => item.textContent()).toContain('ana@example.com — Shipped from Chromium')
      // The lifecycle runs in the page: queued → sent → delivered (300 ms a step in the example).
      await expect.poll(() => item.locator('.status').getAttribute('data-status'), { timeout: 5_000 }).toBe('delivered')
      expect(pageErrors).toEqual([])
      // The steps' own bounds add up past vitest's default 20 s: on a loaded machine (CI, Node 24)
      // the page's first load and the worker's start took most of it, and the test ran out of time
      // while every step was still within its bound.
    }, 60_000)

    it("answers validation errors in the API's error shape, in the browser too", async () => {
      const answer = await page.evaluate(async () => {
        const response = await fetch('https://api.sendbox.test/v1/email/send', {
          method: 'POST',
          headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
          body: JSON.stringify({ to: 'not-an-address', subject: 'x', html: 'x' }),
        })
        return {
          status: response.status,
          remaining: response.headers.get('x-ratelimit-remaining'),
          body: await response.json(),
        }
      })
      expect(answer).toMatchObject({
        status: 400,
        remaining: expect.stringMatching(/^9\d\d$/),
        body: { error: { code: 'invalid_email', param: 'to' } },
      })
    })
  },
)
