import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { API, KEY, sendWhatsappShipped } from '../app.js'

const sandbox = createSandbox({ baseUrl: API, apiKeys: { [KEY]: 'enterprise' }, limits: { enterprise: 1_000_000 } })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => sandbox.reset())
afterAll(() => {
  server.close()
  sandbox.dispose()
})

for (let i = 0; i < 30; i++) {
  it(`WhatsApp shipping update #${i} carries its link`, async () => {
    const to = `+1415555${String(1000 + i)}`
    const value = `https://track.acme.example/p/${i}`
    await sendWhatsappShipped(to, value)
    const message = await sandbox.outbox.waitFor({ channel: 'whatsapp', to })
    expect(message.links[0]).toBe(`https://track.acme.example/p/${i}`)
  })
}
