import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { API, KEY, sendLoginCodeEmail } from '../app.js'

const sandbox = createSandbox({ baseUrl: API, apiKeys: { [KEY]: 'enterprise' }, limits: { enterprise: 1_000_000 } })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => sandbox.reset())
afterAll(() => {
  server.close()
  sandbox.dispose()
})

for (let i = 0; i < 30; i++) {
  it(`login code email #${i} carries its code`, async () => {
    const to = `user${i}@example.com`
    const value = `${String(482900 + i)}`
    await sendLoginCodeEmail(to, value)
    const message = await sandbox.outbox.waitFor({ channel: 'email', to })
    expect(message.codes[0]).toBe(value)
  })
}
