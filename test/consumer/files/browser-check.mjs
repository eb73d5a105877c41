// The browser example (examples/browser) built against this project's msw and sendbox, served,
// and driven in Chromium: the service worker answers the page's fetch, the outbox shows it.
import { chromium } from 'playwright-core'
import { startDevServer } from './browser/dev-server.mjs'

const server = await startDevServer({ port: 0 })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
})
try {
  const page = await browser.newPage()
  const errors = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(server.url)
  await page.waitForSelector('#worker-state[data-ready="true"]', { timeout: 15_000 })
  const answered = page.waitForResponse((response) => response.url() === 'https://api.sendbox.test/v1/email/send')
  await page.fill('input[name="subject"]', 'From the consumer matrix')
  await page.click('button[type="submit"]')
  const response = await answered
  if (!response.fromServiceWorker() || response.status() !== 200)
    throw new Error(`expected a 200 from the service worker, got ${response.status()}`)
  await page.waitForFunction(
    () => document.querySelector('#outbox li .status')?.getAttribute('data-status') === 'delivered',
    undefined,
    { timeout: 10_000 },
  )
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`)
  console.log('browser example: sent through the worker, delivered in the outbox')
} finally {
  await browser.close()
  await server.stop()
}
