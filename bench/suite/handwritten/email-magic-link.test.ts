import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { sendMagicLink } from '../app.js'
import { firstCode, firstLink, messagingHandlers, type SentMessage } from './mocks.js'

const sent: SentMessage[] = []
const server = setupServer(...messagingHandlers(sent))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  sent.length = 0
})
afterAll(() => server.close())

for (let i = 0; i < 30; i++) {
  it(`magic link email #${i} carries its link`, async () => {
    const to = `user${i}@example.com`
    const value = `m${i}k`
    await sendMagicLink(to, value)
    const message = sent.find((m) => m.channel === 'email' && m.to === to)
    expect(firstLink(message)).toBe(`https://app.acme.example/magic?t=m${i}k&r=%2Fhome`)
  })
}
