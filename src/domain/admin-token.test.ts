import { describe, expect, it } from 'vitest'
import { adminTokenProblem, assertAdminToken, sameSecret } from './admin-token.js'

describe('admin tokens', () => {
  it('refuses empty, blank and whitespace-holding tokens with a TypeError', () => {
    for (const token of ['', ' ', '\t\n', 'a b'])
      expect(() => assertAdminToken(token), JSON.stringify(token)).toThrow(TypeError)
  })
  it('accepts no token and any non-blank one', () => {
    expect(() => assertAdminToken(undefined)).not.toThrow()
    expect(adminTokenProblem('adm_123')).toBeUndefined()
  })
})

describe('sameSecret', () => {
  it('is true only for the same string', () => {
    expect(sameSecret('adm_abc', 'adm_abc')).toBe(true)
    for (const given of ['adm_abd', 'adm_ab', 'adm_abcd', '', 'ADM_ABC'])
      expect(sameSecret(given, 'adm_abc'), given).toBe(false)
  })
})
