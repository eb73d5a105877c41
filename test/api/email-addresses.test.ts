import { afterAll, describe, expect, it } from 'vitest'
import { auth, inProcess } from '../helpers.js'

/** Issue 14 item 3: addresses a real mail system refuses are `invalid_email`, in every email field. */
const api = inProcess()
afterAll(() => api.dispose())

const INVALID = [
  ['local part of 65 characters', `${'a'.repeat(65)}@example.com`],
  ['domain label of 64 characters', `ana@${'a'.repeat(64)}.com`],
  ['label ending with -', 'u@example-.com'],
  ['label starting with -', 'u@-example.com'],
  ['inner label ending with -', 'u@mail-.example.com'],
  ['top-level label ending with -', 'u@example.co-'],
] as const

const VALID = [
  `${'a'.repeat(64)}@example.com`,
  `ana@${'a'.repeat(63)}.com`,
  'u@ex-ample.com',
  'u@x--y.example.co',
  "o'neil+tag@sub.example.io",
]

describe('email addresses', () => {
  it.each(INVALID)('%s is invalid_email (to, from.email, subscriber email)', async (_name, address) => {
    const email = await api.call('POST', '/email/send', { to: address, subject: 'Hi', html: 'x' })
    expect(email.status).toBe(400)
    expect((await email.json()).error).toMatchObject({ code: 'invalid_email', param: 'to' })
    const from = await api.call('POST', '/email/send', {
      to: 'ana@example.com',
      subject: 'Hi',
      html: 'x',
      from: { email: address },
    })
    expect((await from.json()).error).toMatchObject({ code: 'invalid_email', param: 'from.email' })
    const subscriber = await api.call('POST', '/subscribers', { email: address })
    expect((await subscriber.json()).error).toMatchObject({ code: 'invalid_email', param: 'email' })
  })

  it.each(VALID)('%s is accepted', async (address) => {
    expect((await api.call('POST', '/email/send', { to: address, subject: 'Hi', html: 'x' }, auth())).status).toBe(200)
  })
})
