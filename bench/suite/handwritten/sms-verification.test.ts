import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { sendVerificationSms } from '../app.js'
import { firstCode, firstLink, messagingHandlers, type SentMessage } from './mocks.js'

const sent: SentMessage[] = []
const server = setupServer(...messagingHandlers(sent))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  sent.length = 0
})
afterAll(() => server.close())

for (let i = 0; i < 30; i++) {
  it(`verification SMS #${i} carries its code`, async () => {
    const to = `+1415555${String(1000 + i)}`
    const value = `${String(710300 + i)}`
    await sendVerificationSms(to, value)
    const message = sent.find((m) => m.channel === 'sms' && m.to === to)
    expect(firstCode(message)).toBe(value)
  })
}
