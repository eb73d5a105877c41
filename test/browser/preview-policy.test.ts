import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { previewBanner, previewHeaders, REMOTE_BLOCKED_TEXT } from '../../src/http/preview-policy.js'
import { chromiumMissing, launchChromium } from './chromium.js'

/**
 * The email preview's headers, enforced by a real browser (issue 11: the preview loaded remote
 * images and CSS — the sender learned the developer's IP — and could be framed by any origin).
 * A tiny server sends an email's HTML with previewHeaders + previewBanner, as the route does; a
 * second one stands for the sender's tracker and counts what reaches it.
 */
describe.skipIf(chromiumMissing)('the email preview policy in headless Chromium', () => {
  let browser: Browser
  // One page for every test: a page costs a renderer process (a second or two of busy cores), a navigation little.
  let page: Page
  let preview: Server
  let tracker: Server
  let previewPort = 0
  let trackerPort = 0
  const trackerHits: string[] = []

  const email = () => `<!doctype html><base href="http://127.0.0.1:${trackerPort}/">
<link rel="stylesheet" href="http://127.0.0.1:${trackerPort}/style.css">
<p>Hello Ana</p><img src="http://127.0.0.1:${trackerPort}/pixel.png" alt=""><img src="relative.png" alt="">`

  beforeAll(async () => {
    tracker = createServer((req, res) => {
      trackerHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': req.url?.endsWith('.css') ? 'text/css' : 'image/gif' })
      res.end()
    })
    preview = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (url.pathname === '/frame.html') {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end(`<!doctype html><iframe src="http://127.0.0.1:${previewPort}/preview"></iframe>`)
        return
      }
      if (url.pathname !== '/preview') {
        res.writeHead(404)
        res.end()
        return
      }
      const remote = url.searchParams.get('remote') === '1'
      res.writeHead(200, previewHeaders({ remote }))
      res.end(previewBanner(remote) + email())
    })
    await new Promise<void>((resolve) => tracker.listen(0, '127.0.0.1', resolve))
    await new Promise<void>((resolve) => preview.listen(0, '127.0.0.1', resolve))
    trackerPort = (tracker.address() as AddressInfo).port
    previewPort = (preview.address() as AddressInfo).port
    browser = await launchChromium()
    page = await browser.newPage()
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => preview?.close(resolve))
    await new Promise((resolve) => tracker?.close(resolve))
  })

  it('blocks remote images and styles and ignores <base> by default, with the banner shown', async () => {
    trackerHits.length = 0
    await page.goto(`http://127.0.0.1:${previewPort}/preview`)
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => document.body.innerText)).toContain(REMOTE_BLOCKED_TEXT)
    expect(trackerHits).toEqual([])
  })

  it('loads them with ?remote=1, still never through <base>', async () => {
    trackerHits.length = 0
    await page.goto(`http://127.0.0.1:${previewPort}/preview?remote=1`)
    await expect.poll(() => [...trackerHits].sort(), { timeout: 3_000 }).toEqual(['/pixel.png', '/style.css'])
    await page.waitForTimeout(200)
    expect(trackerHits, '<base href> would have sent relative.png to the tracker').not.toContain('/relative.png')
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(REMOTE_BLOCKED_TEXT)
  })

  it("may be framed by the sandbox's own pages only", async () => {
    const frameText = () => {
      const frame = page.frames().find((f) => f !== page.mainFrame())
      return frame ? frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : ''
    }
    await page.goto(`http://127.0.0.1:${previewPort}/frame.html`)
    await expect.poll(frameText, { timeout: 3_000 }).toContain('Hello Ana')
    // Same document, other origin (localhost is not 127.0.0.1): the frame stays empty.
    await page.goto(`http://localhost:${previewPort}/frame.html`)
    await page.waitForTimeout(500)
    expect(await frameText()).not.toContain('Hello Ana')
  })
})
