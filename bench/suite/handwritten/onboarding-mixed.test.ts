import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { sendSignupEmail, sendVerificationSms, sendWhatsappOtp } from '../app.js'
import { firstCode, firstLink, messagingHandlers, type SentMessage } from './mocks.js'

const sent: SentMessage[] = []
const server = setupServer(...messagingHandlers(sent))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  sent.length = 0
})
afterAll(() => server.close())

// Onboarding: the confirmation goes out by email, SMS or WhatsApp, whichever the person chose.
for (let i = 0; i < 30; i++) {
  const channel = (['email', 'sms', 'whatsapp'] as const)[i % 3]
  it(`onboarding #${i} by ${channel}`, async () => {
    if (channel === 'email') {
      const to = `new${i}@example.com`
      await sendSignupEmail(to, `onb${i}`)
      expect(firstLink(sent.find((m) => m.channel === 'email' && m.to === to))).toBe(
        `https://app.acme.example/verify?token=onb${i}`,
      )
    } else if (channel === 'sms') {
      const to = `+1202555${String(2000 + i)}`
      await sendVerificationSms(to, String(130000 + i))
      expect(firstCode(sent.find((m) => m.channel === 'sms' && m.to === to))).toBe(String(130000 + i))
    } else {
      const to = `+4420755${String(3000 + i)}`
      await sendWhatsappOtp(to, String(640000 + i))
      expect(firstCode(sent.find((m) => m.channel === 'whatsapp' && m.to === to))).toBe(String(640000 + i))
    }
  })
}
