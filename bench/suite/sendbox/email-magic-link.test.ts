import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { API, KEY, sendMagicLink } from '../app.js'

const sandbox = createSandbox({ baseUrl: API, apiKeys: { [KEY]: 'enterprise' }, limits: { enterprise: 1_000_000 } })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => sandbox.reset())
afterAll(() => {
  server.close()
  sandbox.dispose()
})

for (let i = 0; i < 30; i++) {
  it(`magic link email #${i} carries its link`, async () => {
    const to = `user${i}@example.com`
    const value = `m${i}k`
    await sendMagicLink(to, value)
    const message = await sandbox.outbox.waitFor({ channel: 'email', to })
    expect(message.links[0]).toBe(`https://app.acme.example/magic?t=m${i}k&r=%2Fhome`)
  })
}
