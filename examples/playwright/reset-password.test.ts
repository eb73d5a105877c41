// End to end, as a QA suite would run it: the app in one process-local server, sendbox standalone,
// a real Chromium driven by playwright-core. The test waits on sendbox's long poll — no sleeps,
// no polling loops — takes links[0] from the captured email and opens it.
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { createSandbox } from 'sendbox'
import { startServer, type RunningServer } from 'sendbox/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp } from './app.mjs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const missing = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`
if (missing) console.warn(`[sendbox example] skipping the Playwright example: ${missing}`)

describe.skipIf(missing !== undefined)('password reset, end to end', () => {
  let sendbox: RunningServer
  let app: { url: string; close: () => Promise<void> }
  let browser: Browser
  const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1' })

  beforeAll(async () => {
    sendbox = await startServer(sandbox, { port: 0 })
    app = await startApp({ apiUrl: `${sendbox.url}/v1` })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    })
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await sendbox?.close()
    sandbox.dispose()
  })

  it('asks for a reset, waits for the email, opens its link', async () => {
    const page = await browser.newPage()
    await page.goto(app.url)
    await page.fill('input[name=email]', 'maria@example.com')
    const since = Date.now()
    await page.click('button')
    await page.waitForSelector('#done')

    const wait = await fetch(
      `${sendbox.url}/__sandbox/messages/wait?channel=email&to=maria@example.com&since=${since}&timeout=5000`,
    )
    expect(wait.status).toBe(200)
    const email = (await wait.json()) as { links: string[]; text: string }
    expect(email.text).toContain('Reset Your Password')

    await page.goto(email.links[0])
    expect(await page.textContent('h1')).toBe('Choose a new password for maria@example.com')
  })
})
