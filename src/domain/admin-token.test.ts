import { describe, expect, it } from 'vitest'
import { adminTokenProblem, assertAdminToken } from './admin-token.js'

describe('admin tokens', () => {
  it('refuses empty, blank and whitespace-holding tokens with a TypeError', () => {
    for (const token of ['', ' ', '\t\n', 'a b']) expect(() => assertAdminToken(token), JSON.stringify(token)).toThrow(TypeError)
  })
  it('accepts no token and any non-blank one', () => {
    expect(() => assertAdminToken(undefined)).not.toThrow()
    expect(adminTokenProblem('adm_123')).toBeUndefined()
  })
})
