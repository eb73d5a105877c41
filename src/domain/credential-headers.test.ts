import { describe, expect, it } from 'vitest'
import { isCredentialHeader } from './credential-headers.js'

describe('isCredentialHeader', () => {
  it('names every header whose name suggests a credential (R16)', () => {
    for (const name of [
      'Authorization',
      'proxy-authorization',
      'Cookie',
      'X-Api-Key',
      'x-auth-token',
      'X-Sendbox-Admin-Token',
      'X-Client-Secret',
      'client_secret_v2',
      'X-Password',
    ])
      expect(isCredentialHeader(name), name).toBe(true)
    for (const name of ['Content-Type', 'Accept', 'X-Request-Id', 'User-Agent', 'Prefer', 'Idempotency-Keys-Count'])
      expect(isCredentialHeader(name), name).toBe(false)
  })
})
