import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { startServer, type RunningServer } from '../../src/transports/http-server.js'
import { CHROMIUM_PATH, chromiumMissing } from '../browser/chromium.js'
import { HOSTILE, hostileEmailHtml } from '../hostile-payloads.js'
import { HEADLESS_ARGS } from '../../src/http/screenshot/chromium.js'
import { buildWebInboxOnce } from './support.js'

/**
 * Hostile message content in the web inbox (Chromium): every message-derived string isolated
 * (`<bdi>` or `dir="auto"`), so an override cannot reorder what stands around it; the Links tab
 * marks user@host, punycode, mixed-script hosts and bidi characters with a visible badge and a
 * title; a copy button copies exactly the link shown. SENDBOX_HOSTILE_SHOT=path.png saves a
 * screenshot of the Links tab.
 */
describe.skipIf(chromiumMissing)('hostile content in the web inbox (Chromium)', () => {
  let sandbox: Sandbox
  let server: RunningServer
  let context: BrowserContext
  let page: Page
  let profile: string
  const pageErrors: string[] = []

  beforeAll(async () => {
    await buildWebInboxOnce()
    sandbox = createSandbox({ deliveryMs: 0 })
    server = await startServer(sandbox, { port: 0 })
    profile = mkdtempSync(join(tmpdir(), 'sendbox-web-hostile-'))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: HEADLESS_ARGS,
      viewport: { width: 1280, height: 800 },
      timeout: 20_000,
    })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    page = context.pages()[0] ?? (await context.newPage())
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 60_000)

  afterAll(async () => {
    await context?.close()
    await server?.close()
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  const send = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/v1${path}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(200)
  }

  it('isolates every message string in the list and the detail', async () => {
    await send('/email/send', {
      to: 'ana@example.com',
      from: { email: 'x@acme.example', name: `Acme ${HOSTILE.rlo}` },
      subject: `Invoice ${HOSTILE.rlo} due`,
      html: `${hostileEmailHtml()}<a href="https://acme.example/${HOSTILE.rlo}">bidi</a>`,
    })
    await send('/sms/send', { to: '+14155550123', message: `Code 482913 ${HOSTILE.rlo}` })
    await page.goto(`${server.url}/__sandbox/ui/`)
    const rows = page.locator('#message-list [role=option]')
    await expect.poll(() => rows.count()).toBe(2)
    // Every subject/text, recipient and sender cell holds its value inside a <bdi>.
    for (const row of await rows.all()) {
      expect(await row.locator('.cell.to bdi').count()).toBe(1)
      expect(await row.locator('.cell.subject > bdi').count()).toBe(1)
    }
    // The override is shown as a marker (src/domain/safe-text.ts), not obeyed: "exe.txt" stays "exe.txt".
    expect(await page.locator('.cell.subject > bdi', { hasText: 'Invoice' }).textContent()).toBe(
      'Invoice \ufffdexe.txt due',
    )
    // The sender's name and address are isolated apart: a name cannot reorder the address.
    expect(await page.locator('.cell.subject .from bdi').allTextContents()).toEqual([
      'Acme \ufffdexe.txt',
      'x@acme.example',
    ])

    await rows.filter({ hasText: 'Invoice' }).click()
    await page.locator('#detail-title').waitFor()
    expect(await page.locator('#detail-title bdi').textContent()).toBe('Invoice \ufffdexe.txt due')
    expect(await page.locator('.meta dd bdi').allTextContents()).toEqual(
      expect.arrayContaining(['Acme \ufffdexe.txt', 'x@acme.example']),
    )
    await page.getByRole('tab', { name: 'Text' }).click()
    expect(await page.locator('.text-body').getAttribute('dir')).toBe('auto')
    const text = (await page.locator('.text-body').textContent()) ?? ''
    expect(text).toContain('[osc8:\ufffdclick me\ufffd]')
    expect(text).not.toMatch(/[\u001b\u0007\u202e\u3164\u200b]/)
    await page.getByRole('tab', { name: 'Request' }).click()
    const json = (await page.locator('pre[aria-label="Request body"]').textContent()) ?? ''
    expect(json).toContain('Invoice \\u202eexe.txt due')
    expect(json).not.toContain(HOSTILE.rlo)
  })

  it('marks suspicious links with a badge and a title, and copies exactly the link shown', async () => {
    await page.getByRole('tab', { name: /^Links/ }).click()
    const items = page.locator('.links li')
    const shown = await page.locator('.links a').allTextContents()
    const hrefs = await page.locator('.links a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect(shown).toEqual(hrefs)
    for (const link of shown) {
      // Serialized: no raw whitespace, control or bidi character in what is shown, opened or copied.
      expect(link).not.toMatch(/[\s\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    }
    const badges = async (hasText: string) =>
      items
        .filter({ hasText })
        .locator('.link-warning')
        .evaluateAll((spans) => spans.map((s) => [s.getAttribute('data-kind'), s.getAttribute('title')]))
    const userinfo = await badges('user@acme.example')
    expect(userinfo.map(([kind]) => kind)).toEqual(['userinfo'])
    expect(userinfo[0][1]).toContain('acme.example')
    expect((await badges('xn--pple-43d')).map(([kind]) => kind)).toEqual(['punycode', 'mixed-script'])
    expect((await badges('%E2%80%AE')).map(([kind]) => kind)).toEqual(['bidi'])
    expect(await badges('acme.example/plain')).toEqual([])
    expect(await items.filter({ hasText: 'user@acme.example' }).locator('.link-warning').isVisible()).toBe(true)

    const first = items.filter({ hasText: 'reset' }).first()
    const link = (await first.locator('a').textContent())!
    // The OSC 52 sequence inside the href is removed whole (issue 36, R18).
    expect(link).toBe('https://acme.example/reset?token=abc')
    await first.getByRole('button', { name: /^Copy/ }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    if (process.env.SENDBOX_HOSTILE_SHOT)
      await page.screenshot({ path: process.env.SENDBOX_HOSTILE_SHOT, fullPage: true })
    expect(pageErrors).toEqual([])
  })
})
