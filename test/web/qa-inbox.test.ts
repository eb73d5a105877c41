import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { startServer, type RunningServer } from '../../src/transports/http-server.js'
import { chromiumMissing, launchChromium } from '../browser/chromium.js'
import { buildWebInboxOnce } from './support.js'

/** Where the QA screenshots go (`SENDBOX_QA_SHOTS=dir`); none by default. */
const SHOTS = process.env.SENDBOX_QA_SHOTS

/** Issue 33, item 3: QA without curl, in the web inbox (Chromium). */
describe.skipIf(chromiumMissing)('web inbox: QA without curl', () => {
  let sandbox: Sandbox
  let server: RunningServer
  let browser: Browser
  let page: Page
  let hook: Server

  beforeAll(async () => {
    await buildWebInboxOnce()
    hook = createServer((req, res) => {
      req.resume()
      res.end()
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r))
    sandbox = createSandbox({
      baseUrl: 'http://127.0.0.1:4010/v1',
      deliveryMs: 0,
      webhook: {
        url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`,
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
    })
    server = await startServer(sandbox, { port: 0 })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    sandbox?.dispose()
    await new Promise((r) => hook?.close(r))
  })

  const sendSms = async (to: string, message: string) =>
    (
      (await (
        await fetch(`${server.url}/v1/sms/send`, {
          method: 'POST',
          headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
          body: JSON.stringify({ to, message }),
        })
      ).json()) as { message_id: string }
    ).message_id

  it('simulates STOP on an SMS, lists the reply by its sender, then removes the opt-out from Controls', async () => {
    const id = await sendSms('+14155550123', 'Your code is 123456')
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${id}`)
    // 1: type STOP, 2: Send reply.
    await page.getByLabel(/Reply from \+14155550123/).fill('STOP')
    await page.getByRole('button', { name: 'Send reply' }).click()
    await page.getByText(/is now opted out/).waitFor()
    expect(sandbox.optOuts.list()).toMatchObject([{ number: '+14155550123', keyword: 'STOP' }])
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/qa-reply-desktop.png` })
    // The reply's row: the sender's number, STOP shown as an opt-out.
    const row = page.locator('#message-list .row', { hasText: '← +14155550123' })
    await row.waitFor()
    expect(await row.locator('[data-testid="keyword"]').textContent()).toBe('STOP · opt-out')
    // 3: Controls, 4: Remove.
    await page.getByRole('link', { name: 'Controls' }).click()
    const remove = page.getByRole('button', { name: /Remove the opt-out of \+14155550123/ })
    await remove.waitFor()
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/qa-controls-desktop.png`, fullPage: true })
    await remove.click()
    await page.getByText(/opted back in to/).waitFor()
    expect(sandbox.optOuts.size).toBe(0)
    // The reset question lists everything a reset clears.
    await page.getByRole('button', { name: 'Reset' }).click()
    expect(await page.locator('dialog[open]').textContent()).toContain('opt-outs and webhook attempts')
    await page.keyboard.press('Escape')
  })

  it('request #N selects that request; the list filters API requests from webhook attempts, and an attempt links to its message', async () => {
    const id = await sendSms('+14155550124', 'trace me')
    await sandbox.webhooks!.idle()
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${id}`)
    const link = page.getByRole('link', { name: /^request #\d+$/ })
    await link.waitFor()
    const n = (await link.textContent())!.replace('request #', '')
    await link.click()
    await page.waitForURL(new RegExp(`#/requests/${n}$`))
    const selected = page.locator('#request-list .row[aria-selected="true"]')
    await selected.waitFor()
    expect(await selected.textContent()).toContain(`#${n}`)
    expect(await page.locator('#entry-title').textContent()).toContain(`#${n}`)
    await page.getByLabel('Kind').selectOption('webhook')
    await page.locator('#request-list .row').first().waitFor()
    expect(await page.locator('#request-list .row .method').allTextContents()).toEqual(
      expect.arrayContaining(['POST↗']),
    )
    expect((await page.locator('#request-list .row .method').allTextContents()).every((m) => m === 'POST↗')).toBe(true)
    await page.goto(`${server.url}/__sandbox/ui/#/webhooks`)
    expect(await page.getByTestId('webhook-secret').textContent()).toBe('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
    await page.locator('table.webhooks button.link').first().click()
    const message = page.locator('.webhook-detail a[href^="#/messages/msg_"]')
    await message.waitFor()
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/qa-webhooks-desktop.png` })
  })

  it('the journal keeps the row chosen with the keys on its request while new requests arrive above it', async () => {
    await sendSms('+14155550127', 'one')
    await sendSms('+14155550128', 'two')
    await sandbox.webhooks!.idle()
    await page.goto(`${server.url}/__sandbox/ui/#/requests`)
    const rowId = async (row: ReturnType<Page['locator']>) => /^#(\d+)/.exec((await row.textContent()) ?? '')?.[1]
    const selected = page.locator('#request-list .row[aria-selected="true"]')
    await selected.waitFor()
    await page.locator('#request-list').focus()
    await page.keyboard.press('j')
    await page.keyboard.press('j')
    await page.locator('#request-list-row-2[aria-selected="true"]').waitFor()
    const chosen = await rowId(selected)
    expect(chosen).toMatch(/^\d+$/)
    await sendSms('+14155550129', 'three')
    await sandbox.webhooks!.idle()
    const newest = String(sandbox.journal.list()[0].id)
    await page.locator('#request-list-row-0', { hasText: new RegExp(`^#${newest}\\b`) }).waitFor()
    expect(await rowId(selected)).toBe(chosen)
  })

  it('a refused request keeps its body and names its fault; the account filter names keys and plans', async () => {
    const fault = sandbox.faults.add({ status: 503, path: '/v1/sms/send', times: 1 })
    await sendSms('+14155550125', 'refused body')
    const entry = sandbox.journal.list()[0]
    await page.goto(`${server.url}/__sandbox/ui/#/requests/${entry.id}`)
    await page.locator('#entry-title').waitFor()
    expect(await page.locator('.detail .meta').textContent()).toContain(`${fault.id} (an injected fault answered`)
    expect(await page.locator('pre[aria-label="Request body"]').textContent()).toContain('refused body')
    await page.goto(`${server.url}/__sandbox/ui/#/messages`)
    await page.getByLabel('Account').locator('option', { hasText: 'test_pro · Pro' }).waitFor({ state: 'attached' })
    const options = await page.getByLabel('Account').locator('option').allTextContents()
    expect(options.some((o) => /^acct_\w+ \(test_pro · Pro\)$/.test(o))).toBe(true)
  })

  it('at 390 px the top bar wraps inside the screen and the reply form is there', async () => {
    const id = await sendSms('+14155550126', 'phone sized')
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } })
    try {
      await phone.goto(`${server.url}/__sandbox/ui/#/messages/${id}`)
      await phone.getByRole('button', { name: 'Send reply' }).waitFor()
      const width = await phone.evaluate(() => document.documentElement.scrollWidth)
      expect(width).toBeLessThanOrEqual(390)
      const nav = await phone.locator('header.top nav').boundingBox()
      expect(nav!.x + nav!.width).toBeLessThanOrEqual(390)
      if (SHOTS) await phone.screenshot({ path: `${SHOTS}/qa-reply-390.png` })
      await phone.goto(`${server.url}/__sandbox/ui/#/controls`)
      await phone.getByRole('heading', { name: 'Opt-outs' }).waitFor()
      if (SHOTS) await phone.screenshot({ path: `${SHOTS}/qa-controls-390.png`, fullPage: true })
    } finally {
      await phone.close()
    }
  })
})
