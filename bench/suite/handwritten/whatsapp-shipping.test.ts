import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { sendWhatsappShipped } from '../app.js'
import { firstCode, firstLink, messagingHandlers, type SentMessage } from './mocks.js'

const sent: SentMessage[] = []
const server = setupServer(...messagingHandlers(sent))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  sent.length = 0
})
afterAll(() => server.close())

for (let i = 0; i < 30; i++) {
  it(`WhatsApp shipping update #${i} carries its link`, async () => {
    const to = `+1415555${String(1000 + i)}`
    const value = `https://track.acme.example/p/${i}`
    await sendWhatsappShipped(to, value)
    const message = sent.find((m) => m.channel === 'whatsapp' && m.to === to)
    expect(firstLink(message)).toBe(`https://track.acme.example/p/${i}`)
  })
}
