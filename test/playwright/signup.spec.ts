import { test as base, expect } from 'sendbox/playwright'
import { startApp } from './app.js'

/** The app under test, one per worker, pointed at the worker's sandbox. */
const test = base.extend<object, { app: string }>({
  app: [
    async ({ sandboxWorker }, use) => {
      const app = await startApp(sandboxWorker.apiUrl)
      await use(app.url)
      await app.close()
    },
    { scope: 'worker' },
  ],
})

for (const n of [1, 2, 3, 4]) {
  test(`sign-up ${n}: the emailed link verifies the address`, async ({
    page,
    sandbox,
    sandboxWorker,
    app,
  }, testInfo) => {
    const to = sandbox.recipient('email')
    await page.goto(app)
    await page.fill('#email', to)
    await page.click('button')
    await expect(page.locator('#status')).toHaveText('Check your inbox')
    const email = await sandbox.waitFor({ channel: 'email', to }, { timeout: 10_000 })
    expect(email.created_at >= new Date(sandbox.since).toISOString()).toBe(true)
    await page.goto(email.links[0])
    await expect(page.locator('h1')).toHaveText(`Verified ${to}`)
    // The worker's own sandbox is reset before each test: this test's email is the only one.
    // A shared one (SENDBOX_URL) is not: the others' emails are there too, and this one once.
    const listed = (await sandbox.client.outbox.list()).map((m) => m.to)
    if (sandboxWorker.shared) expect(listed.filter((t) => t === to)).toEqual([to])
    else expect(listed).toEqual([to])
    expect(sandbox.url).toBe(sandboxWorker.shared ? process.env.SENDBOX_URL : sandbox.url)
    testInfo.annotations.push({ type: 'sandbox', description: sandbox.url })
  })
}

test('recipients are unique, and phone numbers look like phones', async ({ sandbox }) => {
  const seen = new Set([
    sandbox.recipient('email'),
    sandbox.recipient('email'),
    sandbox.recipient('sms'),
    sandbox.recipient('whatsapp'),
  ])
  expect(seen.size).toBe(4)
  expect(sandbox.recipient('sms')).toMatch(/^\+1415\d{7}$/)
})

test('the exported expect carries the sendbox matchers, field matchers inside a filter included', async ({
  sandbox,
}) => {
  const to = sandbox.recipient('email')
  const sent = await fetch(`${sandbox.apiUrl}/email/send`, {
    method: 'POST',
    headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
    body: JSON.stringify({
      to,
      subject: 'Verify',
      html: '<p><a href="https://app.example/verify?t=1">Verify</a> code 482913</p>',
    }),
  })
  expect(sent.status).toBe(200)
  await expect(sandbox.client).toHaveSent({
    channel: 'email',
    to,
    links: expect.arrayContaining([expect.stringMatching(/\/verify\?t=1$/)]),
  })
  await expect(sandbox.client).toHaveSentTimes({ to, codes: ['482913'] }, 1)
  await expect(sandbox.client).toHaveSentNothing({ to, subject: 'Other' })
  // A miss fails with the matcher's own message (the nearest misses), not a missing-method TypeError.
  const miss = await expect(sandbox.client)
    .toHaveSent({ to, subject: 'Never sent' }, { timeout: 200 })
    .then(
      () => 'passed',
      (error: Error) => error.message,
    )
  expect(miss).toMatch(/to have been sent/)
})
