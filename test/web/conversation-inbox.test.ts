import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { startServer, type RunningServer } from '../../src/transports/http-server.js'
import { chromiumMissing, launchChromium } from '../browser/chromium.js'
import { buildWebInboxOnce, dispatchSends } from './support.js'

/** Issue 26 in the web inbox: a WhatsApp template as the recipient reads it, a reply, the Webhooks page and its Replay button. */
describe.skipIf(chromiumMissing)('web inbox: WhatsApp bubble and webhooks', () => {
  let sandbox: Sandbox
  let server: RunningServer
  let browser: Browser
  let page: Page
  let hook: Server
  const received: string[] = []

  beforeAll(async () => {
    await buildWebInboxOnce()
    hook = createServer((req, res) => {
      received.push(String(req.headers['webhook-id']))
      req.resume()
      res.end()
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r))
    sandbox = createSandbox({
      baseUrl: 'http://127.0.0.1:4010/v1',
      deliveryMs: 0,
      webhook: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks` },
      templates: {
        templates: [
          {
            name: 'order_update',
            language: 'en',
            header: 'Order {{order}}',
            body: 'Hi {{name}}, your code is {{code}}.',
            footer: 'Shop',
            buttons: [{ text: 'Track', url: 'https://shop.test/t/{{order}}' }, 'Thanks'],
          },
        ],
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

  it('shows the filled template as a chat bubble with its buttons, and a reply on the other side', async () => {
    const sent = await fetch(`${server.url}/v1/whatsapp/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        to: '+14155550123',
        template: 'order_update',
        language: 'en',
        parameters: { order: 'A-7', name: 'Ana', code: '482913' },
      }),
    })
    const { message_id } = (await sent.json()) as { message_id: string }
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${message_id}`)
    const bubble = page.locator('.wa-bubble')
    await bubble.waitFor()
    expect(await bubble.locator('.wa-header').textContent()).toBe('Order A-7')
    expect(await bubble.locator('.wa-text').textContent()).toBe('Hi Ana, your code is 482913.')
    expect(await bubble.locator('mark.code-mark').textContent()).toBe('482913')
    expect(await page.locator('.wa-buttons a').getAttribute('href')).toBe('https://shop.test/t/A-7')
    expect(await page.locator('.wa-buttons li').allTextContents()).toEqual(['↗ Track', '↩ Thanks'])
    const link = page.getByRole('link', { name: /^request #\d+$/ })
    await link.waitFor()
    await link.click()
    await page.waitForURL(/#\/requests\/\d+$/)
    const reply = sandbox.inbound({ channel: 'whatsapp', key: 'test_pro', from: '+14155550123', text: 'Thanks!' })
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${reply.message.message_id}`)
    await page.locator('.wa-bubble.wa-inbound').waitFor()
    expect(await page.locator('.wa-inbound .wa-template').textContent()).toBe('Reply from +14155550123')
  })

  it('lists webhook attempts and replays one with the same webhook-id', async () => {
    await sandbox.webhooks!.idle()
    await page.goto(`${server.url}/__sandbox/ui/#/webhooks`)
    await page.locator('table.webhooks tbody tr').first().waitFor()
    const first = sandbox.webhooks!.attempts.list()[0]
    const before = received.length
    await page.getByRole('button', { name: `Replay ${first.event} (${first.webhook_id})` }).click()
    await page.getByText(`Replayed ${first.event} with webhook-id ${first.webhook_id}.`).waitFor()
    await sandbox.webhooks!.idle()
    expect(received.slice(before)).toEqual([first.webhook_id])
    await page.reload()
    await page.locator('table.webhooks tbody tr').first().waitFor()
    await page.getByRole('button', { name: first.event }).first().click()
    await page.locator('.webhook-detail pre[aria-label="Request headers"]').waitFor()
    expect(await page.locator('.webhook-detail pre[aria-label="Request headers"]').first().textContent()).toContain(
      'webhook-signature: v1,',
    )
  })

  it('the email view: codes with copy buttons, a desktop preview of at least 600 px with presets; d deletes, y copies', async () => {
    const sent = await fetch(`${server.url}/v1/email/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'maria@example.com', subject: 'Reset', html: '<p>Your code is 482913</p>' }),
    })
    const { message_id } = (await sent.json()) as { message_id: string }
    await page.goto(`${server.url}/__sandbox/ui/#/messages/${message_id}`)
    await page.getByRole('button', { name: 'Copy code 482913' }).waitFor()
    for (const preset of ['Desktop', 'Tablet', 'Phone'])
      await page.getByRole('button', { name: preset, exact: true }).waitFor()
    expect((await page.locator('.frame-wrap').boundingBox())!.width).toBeGreaterThanOrEqual(600)
    await page.getByRole('button', { name: 'Tablet', exact: true }).click()
    expect((await page.locator('.frame-wrap').boundingBox())!.width).toBe(768)
    await page.locator('body').press('d')
    await page.getByRole('button', { name: 'Delete message' }).click()
    await expect.poll(() => sandbox.outbox.get(message_id)).toBeUndefined()
  })

  it('the first load fetches page 1 once, compressed, and not the journal', async () => {
    await dispatchSends(
      sandbox,
      '/sms/send',
      'test_enterprise',
      Array.from({ length: 150 }, (_, i) => ({
        to: '+14155550123',
        message: `Your code is ${100000 + i}. ${'Lorem ipsum '.repeat(20)}`,
      })),
    )
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const seen: Array<{ url: string; encoding: string | undefined }> = []
    fresh.on('response', (response) => {
      const url = new URL(response.url())
      if (url.pathname === '/__sandbox/messages' || url.pathname === '/__sandbox/requests')
        seen.push({ url: `${url.pathname}${url.search}`, encoding: response.headers()['content-encoding'] })
    })
    await fresh.goto(`${server.url}/__sandbox/ui/`)
    await fresh.locator('.live-live').waitFor()
    await fresh.locator('#message-list [role=option]').first().waitFor()
    await fresh.waitForTimeout(500)
    const pages = seen.filter(
      (r) => r.url.startsWith('/__sandbox/messages') && !r.url.includes('limit=1&') && !r.url.endsWith('limit=1'),
    )
    expect(pages.map((r) => r.url)).toEqual(['/__sandbox/messages?page=1&limit=100'])
    expect(pages[0].encoding).toBe('gzip')
    expect(seen.filter((r) => r.url.startsWith('/__sandbox/requests'))).toEqual([])
    await fresh.close()
  })
})
