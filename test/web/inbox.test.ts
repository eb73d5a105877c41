import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js'
import { RESET_SCOPES } from '../../src/contract/constants.js'
import { startServer, type RunningServer } from '../../src/transports/http-server.js'
import { chromiumMissing } from '../browser/chromium.js'
import { browserForFile } from '../browser/chromium.js'
import { buildWebInboxOnce, dispatchSends } from './support.js'

/**
 * The web inbox end to end, as a user meets it: the standalone server, the page in headless
 * Chromium, messages sent over HTTP appearing live. With SENDBOX_SCREENSHOTS=1 it also writes
 * docs/screenshots/*.png (each view at 1280×800 and 390×844).
 */
const SCREENSHOTS = process.env.SENDBOX_SCREENSHOTS === '1'
const VIEWS = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } }
const browser = browserForFile()

describe.skipIf(chromiumMissing)('web inbox in Chromium', () => {
  let sandbox: Sandbox
  let server: RunningServer
  let context: BrowserContext
  let page: Page
  // Stands for "the internet": an image host the email references, counting what it is asked.
  let imageHost: Server
  let imageUrl: string
  const imageRequests: string[] = []
  const pageErrors: string[] = []

  const api = async (path: string, body: unknown, key = 'test_pro') => {
    const response = await fetch(`${server.url}/v1${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status, await response.clone().text()).toBe(200)
    return ((await response.json()) as { message_id: string }).message_id
  }
  const rows = () => page.locator('#message-list [role=option]')
  const shoot = async (name: string) => {
    if (!SCREENSHOTS) return
    for (const [view, size] of Object.entries(VIEWS)) {
      await page.setViewportSize(size)
      await page.waitForTimeout(150)
      await page.screenshot({ path: join('docs/screenshots', `${name}-${view}.png`) })
    }
    await page.setViewportSize(VIEWS.desktop)
  }

  beforeAll(async () => {
    await buildWebInboxOnce()
    imageHost = createServer((req, res) => {
      imageRequests.push(req.url ?? '')
      res.writeHead(200, { 'Content-Type': 'image/gif' })
      res.end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64'))
    })
    await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve))
    imageUrl = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}/logo.gif`
    sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', deliveryMs: 200 })
    server = await startServer(sandbox, { port: 0 })
    context = await browser().newContext({ viewport: VIEWS.desktop })
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    if (SCREENSHOTS) mkdirSync('docs/screenshots', { recursive: true })
  }, 60_000)

  afterAll(async () => {
    await context?.close()
    await server?.close()
    await new Promise((resolve) => imageHost?.close(resolve))
  })

  it("opens from / and shows each channel's message live, without reload", async () => {
    const response = await page.goto(`${server.url}/`)
    expect(page.url()).toBe(`${server.url}/__sandbox/ui/`)
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'")
    await page.locator('.live-live').waitFor({ timeout: 5_000 })
    await page.getByText('No messages yet.').waitFor()

    const sends: [string, () => Promise<string>, string][] = [
      [
        'email',
        () =>
          api('/email/send', {
            to: 'ana@example.com',
            from: { email: 'hello@shop.test', name: 'Shop' },
            subject: 'Confirm your account',
            html: `<!doctype html><html><body><h1>Welcome, Ana</h1><p>Your code is <b>482913</b>.</p><p><a href="https://shop.test/confirm?t=abc&amp;u=1">Confirm</a></p><img id="logo" src="${imageUrl}" alt="Shop logo" width="120"></body></html>`,
          }),
        'Confirm your account',
      ],
      [
        'sms',
        () =>
          api('/sms/send', {
            to: '+14155550123',
            from: 'Shop',
            message:
              'Your Shop code is 482913. It expires in 10 minutes. Never share it with anyone, not even with our support team. If you did not ask for this code, ignore this message.',
          }),
        'Your Shop code is 482913',
      ],
      [
        'whatsapp',
        () =>
          api(
            '/whatsapp/send',
            {
              to: '+14155550199',
              template: 'order_shipped',
              language: 'en_US',
              parameters: { name: 'Ana', order: '#1042', tracking: '' },
            },
            'test_starter',
          ),
        'order_shipped',
      ],
    ]
    // Live, without a reload: each row comes over the event stream (well under a second on a quiet
    // machine; the bound is loose because speed is the benchmark's business, not a test's).
    for (const [, send, text] of sends) {
      await send()
      await rows().filter({ hasText: text }).waitFor({ timeout: 5_000 })
    }
    expect(await rows().count()).toBe(3)
    // Newest first, each row marked unseen, counts per channel.
    await expect.poll(() => rows().first().textContent()).toContain('order_shipped')
    expect(await page.locator('#message-list .row.unseen').count()).toBe(3)
    for (const label of ['Email 1', 'SMS 1', 'WhatsApp 1'])
      await page.getByRole('button', { name: new RegExp(`^${label.replace(' ', ' +')}`) }).waitFor()
    await shoot('inbox')
  })

  it('renders the email in a sandboxed iframe with remote images blocked until asked for', async () => {
    await rows().filter({ hasText: 'Confirm your account' }).click()
    const iframe = page.locator('iframe[title="Email HTML preview"]')
    await iframe.waitFor()
    expect(await iframe.getAttribute('sandbox')).toBe('')
    const frame = page.frameLocator('iframe[title="Email HTML preview"]')
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Welcome, Ana')
    // Opened: no longer unseen.
    await expect.poll(() => page.locator('#message-list .row.unseen').count()).toBe(2)
    // The remote image is blocked: nothing reached its host.
    await page.waitForTimeout(300)
    expect(imageRequests).toEqual([])
    await shoot('email')
    // Said once, beside the button (the preview's own banner is left out: banner=0), and gone once loaded.
    expect(await page.locator('.remote-note').textContent()).toContain('Remote content blocked.')
    expect(await iframe.getAttribute('src')).toMatch(/[?&]banner=0/)
    await page.getByRole('button', { name: 'Load remote content' }).click()
    await expect.poll(() => imageRequests.length, { timeout: 3_000 }).toBe(1)
    expect(await page.locator('.remote-note').textContent()).not.toContain('blocked')
    expect(await iframe.getAttribute('src')).toMatch(/[?&]remote=1/)

    await page.getByRole('tab', { name: 'Text' }).click()
    await expect.poll(() => page.locator('.text-body').textContent()).toContain('Welcome, Ana')
    await page.getByRole('tab', { name: 'Source' }).click()
    expect(await page.locator('.source .tok-tag', { hasText: 'h1' }).count()).toBeGreaterThan(0)
    await page.getByRole('tab', { name: /^Links/ }).click()
    const link = page.locator('.links a').first()
    expect(await link.getAttribute('href')).toBe('https://shop.test/confirm?t=abc&u=1')
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
    await page.getByRole('tab', { name: 'Request' }).click()
    expect(await page.locator('pre[aria-label="Request body"]').textContent()).toContain(
      '"subject": "Confirm your account"',
    )
    await page.getByRole('tab', { name: 'HTML' }).click()
    // Status history follows the lifecycle live.
    await expect.poll(() => page.locator('.history li').count(), { timeout: 3_000 }).toBe(3)
  })

  it('shows the SMS with its encoding, segment boundaries and code', async () => {
    await rows().filter({ hasText: 'Your Shop code' }).click()
    await page.locator('.sms-view').waitFor()
    expect(await page.locator('.sms-bubble .segment').count()).toBe(2)
    expect(await page.locator('[data-testid="segment-count"]').textContent()).toMatch(/^2 /)
    expect(await page.locator('.sms-meta').textContent()).toContain('GSM-7')
    expect(await page.locator('.sms-bubble mark.code-mark').first().textContent()).toBe('482913')
    await page.getByRole('button', { name: 'Copy code 482913' }).waitFor()
    await shoot('sms')
  })

  it('shows the WhatsApp template with its parameters and flags the one the preview cannot place', async () => {
    await rows().filter({ hasText: 'order_shipped' }).click()
    await page.locator('.whatsapp-view').waitFor()
    expect(await page.locator('.wa-bubble').textContent()).toContain('Ana')
    expect(await page.locator('.whatsapp-view .meta').textContent()).toContain('en_US')
    const table = page.locator('table.params tbody tr')
    expect(await table.count()).toBe(3)
    expect(await page.locator('tr.unplaced th').textContent()).toBe('tracking')
    await shoot('whatsapp')
  })

  it('isolates bidi text and marks suspicious links; a link shows and copies as it goes (issue 27, N9)', async () => {
    const id = await api('/email/send', {
      to: 'ana@example.com',
      subject: 'Invoice \u202egnp.exe',
      html: '<p>Pay now</p><a href="https://shop.test@evil.test/pay">pay</a> <a href="https://аpple.test/login">login</a> <a href="https://acme.test/ok">ok</a> <a href="https://acme.test/a\nb">nl</a>',
    })
    await page.goto(`${server.url}/__sandbox/ui/#/messages`)
    await rows().filter({ hasText: 'Invoice' }).click()
    await page.locator('#detail-title bdi').waitFor()
    // Isolated, and the override itself shown as a marker (src/domain/safe-text.ts), not obeyed.
    expect(await page.locator('#detail-title bdi').textContent()).toBe('Invoice \ufffdgnp.exe')
    // The override stays inside the subject: the sender beside it in the row reads as sent.
    expect(await rows().filter({ hasText: 'Invoice' }).locator('.cell.subject bdi').first().textContent()).toBe(
      'Invoice \ufffdgnp.exe',
    )
    await page.getByRole('tab', { name: /^Links/ }).click()
    const items = page.locator('.links li')
    await expect.poll(() => items.count()).toBe(4)
    const shown = await page.locator('.links li a bdi').allTextContents()
    const hrefs = await page.locator('.links li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    expect(shown).toEqual(hrefs)
    expect(shown).toEqual([
      'https://shop.test@evil.test/pay',
      'https://xn--pple-43d.test/login',
      'https://acme.test/ok',
      'https://acme.test/ab',
    ])
    const warnings = await items.evaluateAll((lis) =>
      lis.map((li) => li.querySelector('.link-warning')?.textContent ?? ''),
    )
    expect(warnings[0]).toMatch(/not the host: it goes to evil\.test/)
    expect(warnings[1]).toMatch(/punycode/)
    expect(warnings.slice(2)).toEqual(['', ''])
    expect(await page.getByRole('button', { name: 'Copy https://shop.test@evil.test/pay' }).count()).toBe(1)
    await shoot('links-suspicious')
    sandbox.outbox.delete(id)
  })

  it('searches server-side and navigates with the keyboard', async () => {
    await page.goto(`${server.url}/__sandbox/ui/#/messages`)
    await page.locator('.live-live').waitFor()
    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search')
    await page.keyboard.type('expires in 10')
    await expect.poll(() => rows().count()).toBe(1)
    expect(await rows().first().textContent()).toContain('+14155550123')
    await page.fill('#search', 'nothing like this')
    await page.getByText('No message matches these filters.').waitFor()
    await page.fill('#search', '')
    await expect.poll(() => rows().count()).toBe(3)
    await page.keyboard.press('Escape')
    await page.keyboard.press('j')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.url()).toMatch(/#\/messages\/msg_/)
    await page.locator('.detail-sms').waitFor()
  })

  it('reconnects by itself and catches up with what it missed meanwhile', async () => {
    await page.locator('.live-live').waitFor()
    // Every socket dropped (the event stream among them), the server still listening; the
    // message is captured before the page can reconnect (it waits a second), so only the
    // re-fetch on reconnection can show it.
    server.server.closeAllConnections()
    const { getResponse } = await import('msw')
    const sent = await getResponse(
      sandbox.handlers,
      new Request(`${sandbox.baseUrl}/email/send`, {
        method: 'POST',
        headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
        body: JSON.stringify({ to: 'late@example.com', subject: 'Sent while the page was away', html: '<p>late</p>' }),
      }),
    )
    const late = ((await sent!.json()) as { message_id: string }).message_id
    await page.locator('.live-down').waitFor({ timeout: 2_000 })
    await page.locator('.live-live').waitFor({ timeout: 5_000 })
    await rows().filter({ hasText: 'Sent while the page was away' }).waitFor({ timeout: 3_000 })
    // Deleted from elsewhere: the row goes (message.deleted), the rest as the next tests expect.
    expect((await fetch(`${server.url}/__sandbox/messages/${late}`, { method: 'DELETE' })).status).toBe(200)
    await expect.poll(() => rows().count()).toBe(3)
  })

  it('lists the requests live, errors only on demand', async () => {
    await page.goto(`${server.url}/__sandbox/ui/#/requests`)
    const bad = await fetch(`${server.url}/v1/sms/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: '{"to":"+14155550123"}',
    })
    expect(bad.status).toBe(400)
    const list = page.locator('#request-list [role=option]')
    await list.filter({ hasText: 'missing_parameter' }).waitFor({ timeout: 5_000 })
    await page.getByLabel('Errors only').check()
    await expect.poll(() => list.count()).toBe(1)
    await list.first().click()
    expect(await page.locator('.detail').textContent()).toContain('missing_parameter')
    await shoot('requests')
  })

  it('shows each fault with the answers it has left (the server sends `remaining`)', async () => {
    sandbox.faults.add({ status: 503, path: '/v1/sms/send', times: 3 })
    sandbox.faults.add({ status: 500, path: '/v1/email/send' })
    await page.goto(`${server.url}/__sandbox/ui/#/controls`)
    const faultRows = page.locator('section[aria-labelledby=faults-title] tbody tr')
    await expect.poll(() => faultRows.count()).toBe(2)
    const cells = async (row: number) =>
      (await faultRows.nth(row).locator('td').allTextContents()).map((text) => text.trim())
    expect(await cells(0)).toEqual(['503', '—', 'any', '/v1/sms/send', 'any', '3'])
    expect(await cells(1)).toEqual(['500', '—', 'any', '/v1/email/send', 'any', '∞'])
    sandbox.faults.clear()
    // The reset scopes offered are the contract's, every one (the page's own list had fallen behind).
    const scopes = await page
      .locator('select option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
    expect(scopes).toEqual(expect.arrayContaining(['all', ...RESET_SCOPES]))
  })

  it('clears the outbox only after confirmation', async () => {
    await page.goto(`${server.url}/__sandbox/ui/#/controls`)
    await page.getByRole('button', { name: 'Clear outbox' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    await page.keyboard.press('Escape')
    expect(sandbox.outbox.size).toBe(3)
    await shoot('controls')
    await page.getByRole('button', { name: 'Clear outbox' }).click()
    await dialog.getByRole('button', { name: 'Clear outbox' }).click()
    await expect.poll(() => sandbox.outbox.size).toBe(0)
    await page.getByRole('link', { name: 'Messages' }).click()
    await page.getByText('No messages yet.').waitFor()
    expect(pageErrors).toEqual([])
  })

  it('keeps only the visible rows of 10,000 messages in the page, and reaches the last one', async () => {
    // Sent through the sandbox's dispatcher (the standalone server's route table and guard chain,
    // without sockets): quicker than 10,000 HTTP requests. The page is away meanwhile: this
    // measures a list of 10,000, not 30,000 live events.
    await page.goto('about:blank')
    for (let i = 0; i < 10_000; i += 500) {
      await dispatchSends(
        sandbox,
        '/sms/send',
        'test_enterprise',
        Array.from({ length: 500 }, (_, j) => ({ to: '+14155550123', message: `Bulk ${i + j}` })),
      )
      await sandbox.reset('limits')
    }
    expect(sandbox.outbox.size).toBe(10_000)
    const started = Date.now()
    await page.goto(`${server.url}/__sandbox/ui/`)
    await expect.poll(() => rows().first().getAttribute('aria-setsize'), { timeout: 5_000 }).toBe('10000')
    expect(await rows().count()).toBeLessThan(60)
    await page.locator('#message-list').evaluate((list) => {
      list.scrollTop = list.scrollHeight
    })
    await rows()
      .filter({ hasText: /Bulk 0(?!\d)/ })
      .waitFor({ timeout: 5_000 })
    expect(await rows().count()).toBeLessThan(60)
    console.log(`[web inbox] 10,000 messages: first rows and the last one in ${Date.now() - started} ms`)
  }, 60_000)
})

/** A standalone server over `options` and a browser context of its own, for one describe block. */
function serverAndBrowser(options: SandboxOptions): { server: () => RunningServer; context: () => BrowserContext } {
  let server: RunningServer
  let context: BrowserContext
  beforeAll(async () => {
    await buildWebInboxOnce()
    server = await startServer(createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', ...options }), { port: 0 })
    context = await browser().newContext({ viewport: VIEWS.desktop })
  }, 60_000)
  afterAll(async () => {
    await context?.close()
    await server?.close()
  })
  return { server: () => server, context: () => context }
}

describe.skipIf(chromiumMissing)('web inbox behind an admin token', () => {
  const setup = serverAndBrowser({ adminToken: 'letmein-4c1e' })
  let server: RunningServer
  let context: BrowserContext
  beforeAll(() => {
    server = setup.server()
    context = setup.context()
  })

  it('asks for the token once, keeps it for the tab, and never puts it in a URL', async () => {
    const page = context.pages()[0] ?? (await context.newPage())
    const urls: string[] = []
    const tokenHeaders: (string | undefined)[] = []
    page.on('request', (request) => {
      urls.push(request.url())
      const { pathname } = new URL(request.url())
      // The page's own calls (not its files, nor the preview the iframe loads with its preview token).
      if (pathname.startsWith('/__sandbox/') && !pathname.startsWith('/__sandbox/ui/') && !pathname.endsWith('/html'))
        tokenHeaders.push(request.headers()['x-sendbox-admin-token'])
    })
    await page.goto(`${server.url}/__sandbox/ui/`)
    const dialog = page.getByRole('dialog', { name: 'Admin or team token required' })
    await dialog.waitFor()
    await dialog.getByLabel('Admin or team token').fill('wrong')
    await dialog.getByRole('button', { name: 'Use token' }).click()
    await dialog.getByText('That token was refused').waitFor()
    await dialog.getByLabel('Admin or team token').fill('letmein-4c1e')
    await dialog.getByRole('button', { name: 'Use token' }).click()
    await page.locator('.live-live').waitFor({ timeout: 5_000 })
    const response = await fetch(`${server.url}/v1/sms/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: '+14155550123', message: 'Behind a token' }),
    })
    expect(response.status).toBe(200)
    await page.locator('#message-list [role=option]', { hasText: 'Behind a token' }).waitFor({ timeout: 1_000 })
    expect(await page.evaluate(() => sessionStorage.getItem('sendbox.adminToken'))).toBe('letmein-4c1e')

    await page.reload()
    await page.locator('#message-list [role=option]', { hasText: 'Behind a token' }).waitFor()
    expect(await dialog.isVisible()).toBe(false)
    // The email preview frames its HTML with the message's preview token (an iframe sends no header).
    const mail = await fetch(`${server.url}/v1/email/send`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'ana@example.com', subject: 'Guarded preview', html: '<h1>Behind the token</h1>' }),
    })
    expect(mail.status).toBe(200)
    await page.locator('#message-list [role=option]', { hasText: 'Guarded preview' }).click()
    const frame = page.frameLocator('iframe[title="Email HTML preview"]')
    await expect.poll(() => frame.locator('h1').textContent(), { timeout: 5_000 }).toBe('Behind the token')
    expect(await page.locator('iframe[title="Email HTML preview"]').getAttribute('src')).toMatch(/\/html\?token=pvw_/)

    expect(urls.filter((url) => url.includes('letmein'))).toEqual([])
    expect(tokenHeaders.at(-1)).toBe('letmein-4c1e') // the /preview call, the last of the page's own
  })
})

describe.skipIf(chromiumMissing)('web inbox with team tokens', () => {
  const TEAMS = [
    { name: 'north-qa', token: 'team_north_0123456789', accounts: ['north'], key: 'north_key' },
    { name: 'south-qa', token: 'team_south_0123456789', accounts: ['south'], key: 'south_key' },
  ]
  const setup = serverAndBrowser({
    apiKeys: { north_key: 'pro:north', south_key: 'pro:south' },
    adminToken: 'adm_web_teams_01',
    teamTokens: TEAMS.map(({ name, token, accounts }) => ({ name, token, accounts })),
  })
  let server: RunningServer
  let context: BrowserContext
  beforeAll(() => {
    server = setup.server()
    context = setup.context()
  })

  it("shows who is signed in and only their accounts' messages, live", async () => {
    const pages: Page[] = []
    for (const team of TEAMS) {
      const page = await context.newPage()
      // Each tab signs in with its own team token (sessionStorage is per tab).
      await page.goto(`${server.url}/__sandbox/ui/`)
      const dialog = page.getByRole('dialog', { name: 'Admin or team token required' })
      await dialog.getByLabel('Admin or team token').fill(team.token)
      await dialog.getByRole('button', { name: 'Use token' }).click()
      await page.locator('.live-live').waitFor({ timeout: 5_000 })
      await expect
        .poll(() => page.getByTestId('signed-in').textContent(), { timeout: 5_000 })
        .toBe(`Signed in as ${team.name} · ${team.accounts.join(', ')}`)
      pages.push(page)
    }
    for (const team of TEAMS) {
      const response = await fetch(`${server.url}/v1/email/send`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${team.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          to: `someone@${team.accounts[0]}.test`,
          subject: `For ${team.name} only`,
          html: '<p>x</p>',
        }),
      })
      expect(response.status).toBe(200)
    }
    for (const [i, page] of pages.entries()) {
      const mine = TEAMS[i]!
      const theirs = TEAMS[1 - i]!
      await page
        .locator('#message-list [role=option]', { hasText: `For ${mine.name} only` })
        .waitFor({ timeout: 5_000 })
      await page.waitForTimeout(200)
      expect(await page.locator('#message-list').textContent()).not.toContain(theirs.name)
      // The Requests page lists their own account's requests only.
      await page.getByRole('link', { name: 'Requests' }).click()
      await page.getByText('/v1/email/send').first().waitFor({ timeout: 5_000 })
      expect(await page.locator('main').textContent()).toContain('1 request')
      expect(await page.locator('main').textContent()).not.toContain('2 requests')
      if (SCREENSHOTS && i === 0) await page.screenshot({ path: join('docs/screenshots', 'team-token-desktop.png') })
    }
  })

  it('offers a team the controls of its own accounts: reset scopes, faults with its account, clearing its outbox', async () => {
    const admin = { Authorization: 'Bearer adm_web_teams_01', 'Content-Type': 'application/json' }
    const page = context.pages().at(-2)! // the north-qa tab of the test above
    // In front again: Chromium throttles a background tab's animation frames, which Playwright's
    // checks before each click wait on (two seconds a click).
    await page.bringToFront()
    await page.goto(`${server.url}/__sandbox/ui/#/controls`)
    await page
      .getByText('Clearing removes the captured messages of the accounts of north-qa (north).')
      .waitFor({ timeout: 5_000 })
    const scopes = await page
      .locator('section[aria-labelledby=reset-title] select option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
    expect(scopes).toEqual(['all', 'messages', 'subscribers', 'faults', 'opt_outs'])
    // A fault armed from the form is the team's own: it carries its account, and fails only its requests.
    await page.locator('input[name=path]').fill('/v1/sms/send')
    await page.getByRole('button', { name: 'Arm fault' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Arm fault' }).click()
    const faultRows = page.locator('section[aria-labelledby=faults-title] tbody tr')
    await expect.poll(() => faultRows.count()).toBe(1)
    expect((await faultRows.first().locator('td').allTextContents()).map((t) => t.trim())).toEqual([
      '500',
      '—',
      'any',
      '/v1/sms/send',
      'north',
      '1',
    ])
    const sms = (key: string) =>
      fetch(`${server.url}/v1/sms/send`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ to: '+14155550123', message: 'x' }),
      })
    expect((await sms('south_key')).status).toBe(200)
    expect((await sms('north_key')).status).toBe(500)
    // Clearing the outbox from this tab leaves the other team's messages.
    await page.getByRole('button', { name: 'Clear outbox' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Clear outbox' }).click()
    await page.getByText('Outbox cleared.').waitFor({ timeout: 5_000 })
    const left = (await (await fetch(`${server.url}/__sandbox/messages`, { headers: admin })).json()).data as {
      account: string
    }[]
    expect(left.length).toBeGreaterThan(0)
    expect(new Set(left.map((m) => m.account))).toEqual(new Set(['south']))
    if (SCREENSHOTS)
      await page.screenshot({ path: join('docs/screenshots', 'team-token-controls-desktop.png'), fullPage: true })
  })
})
