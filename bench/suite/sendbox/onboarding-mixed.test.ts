import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { API, KEY, sendSignupEmail, sendVerificationSms, sendWhatsappOtp } from '../app.js'

const sandbox = createSandbox({ baseUrl: API, apiKeys: { [KEY]: 'enterprise' }, limits: { enterprise: 1_000_000 } })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => sandbox.reset())
afterAll(() => {
  server.close()
  sandbox.dispose()
})

// Onboarding: the confirmation goes out by email, SMS or WhatsApp, whichever the person chose.
for (let i = 0; i < 30; i++) {
  const channel = (['email', 'sms', 'whatsapp'] as const)[i % 3]
  it(`onboarding #${i} by ${channel}`, async () => {
    if (channel === 'email') {
      const to = `new${i}@example.com`
      await sendSignupEmail(to, `onb${i}`)
      expect((await sandbox.outbox.waitFor({ channel: 'email', to })).links[0]).toBe(
        `https://app.acme.example/verify?token=onb${i}`,
      )
    } else if (channel === 'sms') {
      const to = `+1202555${String(2000 + i)}`
      await sendVerificationSms(to, String(130000 + i))
      expect((await sandbox.outbox.waitFor({ channel: 'sms', to })).codes[0]).toBe(String(130000 + i))
    } else {
      const to = `+4420755${String(3000 + i)}`
      await sendWhatsappOtp(to, String(640000 + i))
      expect((await sandbox.outbox.waitFor({ channel: 'whatsapp', to })).codes[0]).toBe(String(640000 + i))
    }
  })
}
