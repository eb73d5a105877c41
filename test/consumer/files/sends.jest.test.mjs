// The README's Jest recipe (ESM): `node --experimental-vm-modules node_modules/jest/bin/jest.js`.
import { expect, test, beforeAll, afterAll } from '@jest/globals'
import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { matchers } from 'sendbox/matchers'

expect.extend(matchers)
const sandbox = createSandbox({ deliveryMs: 0 })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

test('an SMS sent through fetch is captured, with its code', async () => {
  const response = await fetch('https://api.sendbox.test/v1/sms/send', {
    method: 'POST',
    headers: { Authorization: 'Bearer test_pro', 'Content-Type': 'application/json' },
    body: JSON.stringify({ to: '+14155550123', message: 'Your code is 7788' }),
  })
  expect(response.status).toBe(200)
  const sms = await sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550123' })
  expect(sms.codes).toEqual(['7788'])
  expect(sandbox).toHaveSent({ channel: 'sms', text: /7788/ })
})
