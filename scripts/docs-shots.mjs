#!/usr/bin/env node
// `npm run docs:shots`: the README's two screenshots, from the real UIs. Starts the built sendbox
// (`dist/bin/sendbox.js`, so run `npm run build` first) with its terminal UI in a private tmux
// server at 160×45, sends a few realistic messages (an email with a code and a link, an SMS, a
// WhatsApp template message, a reply), then
// - screenshots the web inbox of that same server in Chromium → docs/screenshots/web-inbox.png;
// - captures the tmux pane with its colours (`capture-pane -e`), turns the ANSI text into an HTML
//   page (scripts/ansi-html.mjs) and screenshots it in Chromium → docs/screenshots/terminal-ui.png.
// Chromium: CHROMIUM_PATH, default /usr/bin/chromium (Debian's `chromium` package). Look at both
// PNGs before committing them.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { ansiToHtml } from './ansi-html.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OUT = join(ROOT, 'docs/screenshots')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CLI = join(ROOT, 'dist/bin/sendbox.js')
const work = mkdtempSync(join(tmpdir(), 'sendbox-shots-'))
const tmux = (...args) => execFileSync('tmux', ['-S', join(work, 'tmux.sock'), ...args], { encoding: 'utf8' })
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const TEMPLATES = {
  templates: [
    {
      name: 'order_update',
      language: 'en_US',
      header: 'Order {{order}}',
      body: 'Hi {{name}}, your order {{order}} ships today. It arrives on {{day}}.',
      footer: 'Reply STOP to opt out',
      buttons: [{ text: 'Track order', url: 'https://shop.example.com/track/{{order}}' }],
    },
  ],
}

const EMAIL_HTML = `<div style="font-family:Helvetica,Arial,sans-serif;max-width:520px;margin:0 auto;color:#1f2937">
<h1 style="font-size:22px">Confirm your email</h1>
<p>Hi Ana, thanks for signing up to Acme. Your verification code is:</p>
<p style="font-size:30px;letter-spacing:6px;font-weight:bold">482913</p>
<p>Or confirm with one click:</p>
<p><a href="https://app.example.com/verify?token=9f2c71" style="background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Confirm my email</a></p>
<p style="color:#6b7280;font-size:13px">The code expires in 10 minutes. If you did not sign up, ignore this email.</p>
</div>`

const email = (to, subject, html, from = { email: 'hello@acme.test', name: 'Acme' }) => [
  '/email/send',
  { to, subject, html, from },
]
const sms = (to, message) => ['/sms/send', { to, from: 'Acme', message }]

/** The messages both screenshots show, oldest first: a morning of a sign-up and checkout test. */
const SENDS = [
  email(
    'li.wei@example.com',
    'Welcome to Acme, Wei',
    '<p>Hi Wei, welcome aboard. <a href="https://app.example.com/start">Get started</a></p>',
  ),
  sms('+14155550142', 'Your Acme code is 730215. It expires in 10 minutes.'),
  email(
    'tom.becker@example.de',
    'Reset your password',
    '<p>Someone asked to reset your password. <a href="https://app.example.com/reset?token=c81e">Choose a new password</a></p>',
  ),
  [
    '/whatsapp/send',
    {
      to: '+447700900456',
      template: 'order_update',
      language: 'en_US',
      parameters: { name: 'Priya', order: '#1039', day: 'Thursday' },
    },
  ],
  email('bounce@sendbox.test', 'Your invoice INV-2207', '<p>Your invoice is attached.</p>'),
  sms('+15005550001', 'Acme: your table for 2 at 19:30 is confirmed.'),
  email(
    'sam.okafor@example.com',
    'Your weekly summary',
    '<p>3 orders, 1 return. <a href="https://app.example.com/summary">See the details</a></p>',
  ),
  sms('+33612345678', 'Acme : votre code de vérification est 551904.'),
  email(
    'noah.jensen@example.dk',
    'Your order #1040 has shipped',
    '<p>Track it here: <a href="https://shop.example.com/track/1040">track your parcel</a></p>',
  ),
  sms('+4915112345678', 'Acme: Ihr Code lautet 318822.'),
  email(
    'aiko.tanaka@example.jp',
    'Confirm your email',
    '<p>Your code is 664410. <a href="https://app.example.com/verify?token=77aa">Confirm</a></p>',
  ),
  [
    '/whatsapp/send',
    {
      to: '+14155550177',
      template: 'order_update',
      language: 'en_US',
      parameters: { name: 'Luis', order: '#1041', day: 'Monday' },
    },
  ],
  email(
    'support-digest@acme.test',
    '5 new tickets today',
    '<p>5 new tickets. <a href="https://support.example.com/queue">Open the queue</a></p>',
    { email: 'robot@acme.test', name: 'Acme Support' },
  ),
  sms('+14155550199', 'Acme: your subscription renews on 1 December.'),
  email('maria.garcia@example.com', 'Two-factor sign-in code', '<p>Your sign-in code is 190447.</p>'),
  sms('+15005550006', 'Acme: your return label is ready. Drop it off within 14 days.'),
  [
    '/email/send',
    {
      to: 'maria.garcia@example.com',
      subject: 'Your receipt for order #1042',
      from: { email: 'billing@acme.test', name: 'Acme Billing' },
      html: '<p>Thanks for your order #1042: 2 items, $48.90.</p><p><a href="https://shop.example.com/orders/1042">View your order</a></p>',
    },
  ],
  [
    '/sms/send',
    {
      to: '+447700900123',
      from: 'Acme',
      message: 'Acme: your parcel 1042 is out for delivery today between 10:00 and 12:00.',
    },
  ],
  [
    '/__sandbox/inbound',
    {
      channel: 'sms',
      key: 'test_pro',
      from: '+447700900123',
      text: 'Thanks! Please leave it with the neighbour at 12.',
    },
  ],
  [
    '/whatsapp/send',
    {
      to: '+14155550123',
      template: 'order_update',
      language: 'en_US',
      parameters: { name: 'Ana', order: '#1042', day: 'Friday' },
    },
  ],
  ['/sms/send', { to: '+14155550123', from: 'Acme', message: 'Your Acme code is 482913. It expires in 10 minutes.' }],
  [
    '/email/send',
    {
      to: 'ana@example.com',
      subject: 'Confirm your email',
      from: { email: 'hello@acme.test', name: 'Acme' },
      html: EMAIL_HTML,
    },
  ],
]

async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function waitForHealth(origin) {
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${origin}/__sandbox/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await sleep(100)
  }
  throw new Error(`sendbox did not answer at ${origin}: ${tmux('capture-pane', '-p', '-t', 'shots')}`)
}

/** The CLI with its terminal UI in tmux, as a user starts it (Ink draws nothing live under CI=…). */
async function startInTmux(port) {
  const templates = join(work, 'templates.json')
  writeFileSync(templates, JSON.stringify(TEMPLATES))
  const env = Object.keys(process.env)
    .filter((name) => name.startsWith('SENDBOX_') || name === 'CI' || name === 'CONTINUOUS_INTEGRATION')
    .map((name) => `-u ${name}`)
    .join(' ')
  const command = `cd ${JSON.stringify(work)} && env ${env} FORCE_COLOR=3 COLORTERM=truecolor ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} --port ${port} --delivery-ms 400 --templates templates.json --webhook-secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw; sleep 30`
  tmux('new-session', '-d', '-s', 'shots', '-x', '160', '-y', '45', 'sh', '-c', command)
  await waitForHealth(`http://127.0.0.1:${port}`)
}

async function send(origin) {
  for (const [path, body] of SENDS) {
    const response = await fetch(`${origin}${path.startsWith('/__sandbox') ? '' : '/v1'}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
    await sleep(60)
  }
  await sleep(2500) // every lifecycle step done: the lists show delivered
}

async function shootWeb(browser, origin) {
  const page = await browser.newPage({
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  })
  await page.goto(`${origin}/`)
  const rows = page.locator('#message-list [role=option]')
  await rows.first().waitFor()
  await rows.filter({ hasText: 'Confirm your email' }).first().click()
  await page.frameLocator('iframe[title="Email HTML preview"]').getByText('Confirm my email').waitFor()
  await sleep(500) // the preview's layout
  await page.screenshot({ path: join(OUT, 'web-inbox.png') })
  await page.close()
}

async function shootTerminal(browser) {
  const ansi = tmux('capture-pane', '-e', '-p', '-t', 'shots')
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1 })
  await page.setContent(ansiToHtml(ansi, { title: 'sendbox — terminal UI' }))
  await page.locator('#terminal').screenshot({ path: join(OUT, 'terminal-ui.png') })
  await page.close()
}

mkdirSync(OUT, { recursive: true })
const port = await freePort()
const origin = `http://127.0.0.1:${port}`
let browser
try {
  await startInTmux(port)
  await send(origin)
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  await shootWeb(browser, origin)
  await shootTerminal(browser)
  console.log(`written: ${join(OUT, 'web-inbox.png')}, ${join(OUT, 'terminal-ui.png')}`)
} finally {
  await browser?.close()
  spawnSync('tmux', ['-S', join(work, 'tmux.sock'), 'kill-server'])
  rmSync(work, { recursive: true, force: true })
}
