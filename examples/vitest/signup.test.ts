// Sign-up with an OTP, asserted the short way: wait for the SMS, take its code, assert with matchers.
import { setupServer } from 'msw/node'
import { createSandbox } from 'sendbox'
import { matchers } from 'sendbox/matchers'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { API_BASE_URL, confirm, signUp } from './signup.js'

expect.extend(matchers)

const sandbox = createSandbox({ baseUrl: API_BASE_URL, apiKeys: { shop_key: 'pro' } })
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => sandbox.reset())
afterAll(() => {
  server.close()
  sandbox.dispose()
})

it('texts a one-time code that confirms the sign-up', async () => {
  const waiting = sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550123' }, { timeout: 2_000 })
  await signUp('ana@example.com', '+14155550123')
  const sms = await waiting

  expect(sms.codes).toHaveLength(1)
  expect(confirm('+14155550123', sms.codes[0])).toBe(true)
  expect(sandbox).toHaveSent({ channel: 'sms', to: '+14155550123', text: /verification code is \d{6}/ })
  expect(sandbox).toHaveSentTimes({ channel: 'sms' }, 1)
  expect(sandbox).toHaveSentNothing({ channel: 'email' })
})

it('a wait for the wrong number fails fast with what was sent instead', async () => {
  await signUp('bo@example.com', '+14155550124')
  await expect(sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550123' }, { timeout: 50 })).rejects.toThrow(
    /no SMS to \+14155550123 in 50 ms; the last SMS went to \+14155550124 "Your Acme verification code is \d{6}/,
  )
})
