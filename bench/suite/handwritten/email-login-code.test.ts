import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { sendLoginCodeEmail } from '../app.js'
import { firstCode, firstLink, messagingHandlers, type SentMessage } from './mocks.js'

const sent: SentMessage[] = []
const server = setupServer(...messagingHandlers(sent))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  sent.length = 0
})
afterAll(() => server.close())

for (let i = 0; i < 30; i++) {
  it(`login code email #${i} carries its code`, async () => {
    const to = `user${i}@example.com`
    const value = `${String(482900 + i)}`
    await sendLoginCodeEmail(to, value)
    const message = sent.find((m) => m.channel === 'email' && m.to === to)
    expect(firstCode(message)).toBe(value)
  })
}
