import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckReport } from '../../src/contract/checks.js'
import { checkReportSchema } from '../../src/contract/checks.js'
import { ROUTES } from '../../src/http/routes.js'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { workerHtmlChecker } from '../../src/transports/check-worker-pool.js'
import { startServer, type RunningServer } from '../../src/transports/http-server.js'
import { chromiumMissing, launchChromium } from '../browser/chromium.js'
import { buildWebInboxOnce } from './support.js'

/**
 * The web inbox's Checks tab and dark previews in headless Chromium (issue 35, item 5). The
 * report comes from the real `GET /__sandbox/messages/{id}/checks` when the route table has it;
 * until then from a report of the contract's shape, served in its place (checked against
 * checkReportSchema). With SENDBOX_SCREENSHOTS=1 it writes docs/screenshots/checks-desktop.png
 * and dark-desktop.png.
 */
const SCREENSHOTS = process.env.SENDBOX_SCREENSHOTS === '1'
const REAL_ROUTE = ROUTES.some((route) => route.method === 'GET' && route.path === '/__sandbox/messages/{id}/checks')

const EMAIL = `<!doctype html>
<html>
<head><style>
  body { background: #ffffff; color: #1b1f24; font: 16px/1.5 sans-serif; }
  .row { display: flex; gap: 12px; }
  @media (prefers-color-scheme: dark) { body { background: #0f1720; color: #e8eef5; } }
</style></head>
<body>
  <h1>Welcome aboard, Ana</h1>
  <div class="row"><p>Your account is ready.</p><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==" width="40" height="40"></div>
  <p><a href="javascript:alert(1)">Verify your email</a> or <a href="http://example.com/help">read the help</a>.</p>
  <p><a href="https://tracker.example.net/c/1">https://example.com/account</a></p>
</body>
</html>`

/** A report of the contract's shape for EMAIL (lines as in EMAIL), with a hostile message text. */
function stubReport(id: string): CheckReport {
  const report: CheckReport = {
    message_id: id,
    channel: 'email',
    score: 62,
    counts: { error: 1, warning: 4, info: 1 },
    checks: [
      {
        id: 'compat.css-display-flex',
        severity: 'warning',
        category: 'compatibility',
        message: '`display: flex` is not supported by Outlook on Windows: the items stack.',
        location: { line: 5, column: 10, excerpt: '.row { display: flex; gap: 12px; }' },
        clients: ['outlook.windows'],
        notes: ['Partial in Outlook.com'],
        url: 'https://www.caniemail.com/features/css-display-flex/',
      },
      {
        id: 'compat.css-gap',
        severity: 'info',
        category: 'compatibility',
        message: '`gap` is partly supported.',
        location: { line: 5, column: 25, excerpt: 'gap: 12px;' },
        clients: ['gmail.desktop-webmail'],
      },
      {
        id: 'links.javascript',
        severity: 'error',
        category: 'links',
        message: 'A javascript: link <img src=x onerror="document.title=1">never works in mail.',
        location: { line: 11, column: 6, excerpt: '<a href="javascript:alert(1)">' },
        link: 'javascript:alert(1)',
      },
      {
        id: 'links.http',
        severity: 'warning',
        category: 'links',
        message: 'An http: link: use https.',
        location: { line: 11, column: 59, excerpt: '<a href="http://example.com/help">' },
        link: 'http://example.com/help',
      },
      {
        id: 'links.text-host-mismatch',
        severity: 'warning',
        category: 'links',
        message: 'The text names example.com, the link goes to tracker.example.net.',
        location: { line: 12, column: 6, excerpt: '<a href="https://tracker.example.net/c/1">' },
        link: 'https://tracker.example.net/c/1',
      },
      {
        id: 'images.alt',
        severity: 'warning',
        category: 'accessibility',
        message: 'An image without alt.',
        location: { line: 10, column: 51, excerpt: '<img src="data:image/gif…' },
      },
    ],
    clients: [
      { client: 'outlook.windows', supported: 50, counted: true },
      { client: 'apple-mail.macos', supported: 100, counted: true },
      { client: 'gmail.desktop-webmail', supported: 75, counted: true },
    ],
    checked_at: '2026-11-26T10:00:00.000Z',
    live_links: false,
  }
  return checkReportSchema.parse(report)
}

describe.skipIf(chromiumMissing)("the web inbox's Checks tab and dark previews", () => {
  let sandbox: Sandbox
  let server: RunningServer
  let browser: Browser
  let page: Page
  let id: string

  beforeAll(async () => {
    await buildWebInboxOnce()
    sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1' })
    server = await startServer(sandbox, { port: 0 })
    // The email checks' worker thread (and the checks' modules) start while Chromium does: cold,
    // from the sources, they take seconds, which the first report would wait for. Nothing of the
    // sandbox is touched: no message is checked before the page asks.
    const warm = Promise.all([workerHtmlChecker('<p>warm</p>', []), import('../../src/domain/checks/index.js')])
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await warm
    if (!REAL_ROUTE) {
      console.warn(
        "[sendbox] the checks route is not in the route table yet: the Checks tab test reads a report of the contract's shape",
      )
      await page.route('**/__sandbox/messages/*/checks*', (route) => {
        const asked = new URL(route.request().url())
        const messageId = decodeURIComponent(asked.pathname.split('/')[3]!)
        const report = { ...stubReport(messageId), live_links: asked.searchParams.get('links') === 'live' }
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(report) })
      })
    }
    const response = await fetch(`${server.url}/v1/email/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'ana@example.com', subject: 'Welcome aboard', html: EMAIL }),
    })
    id = ((await response.json()) as { message_id: string }).message_id
    if (SCREENSHOTS) mkdirSync('docs/screenshots', { recursive: true })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    sandbox?.dispose()
  })

  it('shows the score and the checks grouped by category, errors first, and escapes their text', async () => {
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${id}`)
    await page.getByRole('tab', { name: 'Checks' }).click()
    const score = page.getByTestId('checks-score')
    await score.waitFor()
    expect(Number((await score.textContent())!.replace('/100', ''))).toBeGreaterThanOrEqual(0)
    const groups = await page
      .locator('.check-group[data-category]')
      .evaluateAll((sections) => sections.map((s) => s.getAttribute('data-category')))
    const order = [
      'links',
      'sender',
      'template',
      'encoding',
      'spam',
      'images',
      'accessibility',
      'size',
      'compatibility',
    ]
    expect(groups.length).toBeGreaterThan(0)
    expect([...groups].sort((a, b) => order.indexOf(a!) - order.indexOf(b!))).toEqual(groups)
    // Within each category: errors, then warnings, then info.
    const severities = await page
      .locator('.check-group[data-category]')
      .evaluateAll((sections) =>
        sections.map((s) =>
          [...s.querySelectorAll('li.finding')].map((li) =>
            ['error', 'warning', 'info'].findIndex((sev) => li.classList.contains(`sev-${sev}`)),
          ),
        ),
      )
    for (const list of severities) expect([...list].sort((a, b) => a - b)).toEqual(list)
    const javascript = page.locator('li.finding[data-check="links.javascript"]')
    await expect.poll(() => javascript.count()).toBeGreaterThan(0)
    if (!REAL_ROUTE) {
      // The report's text is shown as text: the tag in the message is not an element.
      await expect.poll(() => javascript.locator('.finding-message').textContent()).toContain('<img src=x onerror=')
      expect(await javascript.locator('img').count()).toBe(0)
      expect(await page.locator('table.clients tbody tr').count()).toBe(3)
    }
    if (SCREENSHOTS) await page.screenshot({ path: join('docs/screenshots', 'checks-desktop.png') })
  }, 60_000)

  it('jumps from a check to its line in the Source tab, marked', async () => {
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${id}`)
    await page.getByRole('tab', { name: 'Checks' }).click()
    const located = page.locator('li.finding[data-check="links.javascript"] .check-where button')
    await located.first().waitFor()
    const line = Number(/Line (\d+)/.exec((await located.first().textContent())!)![1])
    await located.first().click()
    expect(await page.getByRole('tab', { name: 'Source' }).getAttribute('aria-selected')).toBe('true')
    const marked = page.locator('.src-line-marked')
    await marked.waitFor()
    expect(await marked.count()).toBe(1)
    expect(Number(await marked.getAttribute('data-line'))).toBe(line)
    expect(await marked.textContent()).toContain('javascript:alert(1)')
    expect(await marked.isVisible()).toBe(true)
  }, 60_000)

  it('checks the links live when asked', async () => {
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${id}`)
    await page.getByRole('tab', { name: 'Checks' }).click()
    const asked = page.waitForRequest((request) => request.url().includes('/checks?links=live'))
    await page.getByRole('button', { name: 'Check live links' }).click()
    await asked
    await page.getByRole('button', { name: 'Links checked live' }).waitFor()
  }, 60_000)

  it('gives an SMS a Checks tab beside its phone view', async () => {
    const response = await fetch(`${server.url}/v1/sms/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: '+14155550123', message: 'Don’t forget: your code is 482913' }),
    })
    const sms = ((await response.json()) as { message_id: string }).message_id
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${sms}`)
    await page.locator('.sms-bubble').waitFor()
    await page.getByRole('tab', { name: 'Checks' }).click()
    await page.getByTestId('checks-score').waitFor()
    expect(await page.locator('.sms-bubble').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Check live links' }).count()).toBe(0)
    await page.getByRole('tab', { name: 'Message' }).click()
    await page.locator('.sms-bubble').waitFor()
  }, 60_000)

  it('previews the email in its own dark styles and in forced dark', async () => {
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${id}`)
    await page.getByRole('tab', { name: 'HTML' }).click()
    const frame = page.frameLocator('iframe[title="Email HTML preview"]')
    const background = () => frame.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor)
    const rootFilter = () => frame.locator('html').evaluate((html) => getComputedStyle(html).filter)
    const pick = (name: string) =>
      page.getByRole('group', { name: 'Colour scheme' }).getByRole('button', { name, exact: true }).click()
    await pick('Light')
    await expect.poll(background).toBe('rgb(255, 255, 255)')
    await pick('Dark')
    await expect.poll(background).toBe('rgb(15, 23, 32)')
    expect(await rootFilter()).toBe('none')
    await pick('Dark (forced)')
    await expect.poll(rootFilter).toContain('invert(1)')
    expect(await background()).toBe('rgb(255, 255, 255)') // the email's light styles, inverted by the filter
    await pick('Dark')
    await expect.poll(background).toBe('rgb(15, 23, 32)')
    if (SCREENSHOTS) await page.screenshot({ path: join('docs/screenshots', 'dark-desktop.png') })
    // The three widths stay.
    for (const width of ['Desktop', 'Tablet', 'Phone'])
      expect(
        await page.getByRole('group', { name: 'Preview width' }).getByRole('button', { name: width }).count(),
      ).toBe(1)
  }, 60_000)
})
