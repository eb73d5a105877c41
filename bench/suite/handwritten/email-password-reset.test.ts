import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { sendPasswordReset } from '../app.js'
import { firstCode, firstLink, messagingHandlers, type SentMessage } from './mocks.js'

const sent: SentMessage[] = []
const server = setupServer(...messagingHandlers(sent))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  sent.length = 0
})
afterAll(() => server.close())

for (let i = 0; i < 30; i++) {
  it(`password reset email #${i} carries its link`, async () => {
    const to = `user${i}@example.com`
    const value = `rst${i}x`
    await sendPasswordReset(to, value)
    const message = sent.find((m) => m.channel === 'email' && m.to === to)
    expect(firstLink(message)).toBe(`https://app.acme.example/reset/rst${i}x`)
  })
}
