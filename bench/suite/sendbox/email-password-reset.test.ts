import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { API, KEY, sendPasswordReset } from '../app.js'

const sandbox = createSandbox({ baseUrl: API, apiKeys: { [KEY]: 'enterprise' }, limits: { enterprise: 1_000_000 } })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => sandbox.reset())
afterAll(() => {
  server.close()
  sandbox.dispose()
})

for (let i = 0; i < 30; i++) {
  it(`password reset email #${i} carries its link`, async () => {
    const to = `user${i}@example.com`
    const value = `rst${i}x`
    await sendPasswordReset(to, value)
    const message = await sandbox.outbox.waitFor({ channel: 'email', to })
    expect(message.links[0]).toBe(`https://app.acme.example/reset/rst${i}x`)
  })
}
