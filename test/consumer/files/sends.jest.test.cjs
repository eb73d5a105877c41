// Jest with CommonJS test files: require() of the ESM-only package (see the README's Jest notes).
const { expect, test, beforeAll, afterAll } = require('@jest/globals')
const { setupServer } = require('msw/node')
const { createSandbox } = require('sendbox')
const { matchers } = require('sendbox/matchers')

expect.extend(matchers)
const sandbox = createSandbox({ deliveryMs: 0 })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

test('require(sendbox) under jest: an email is captured', async () => {
  const response = await fetch('https://api.sendbox.test/v1/email/send', {
    method: 'POST',
    headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
    body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<a href="https://x.example/a">a</a>' }),
  })
  expect(response.status).toBe(200)
  expect(sandbox).toHaveSent({ channel: 'email', to: 'ana@example.com' })
})
