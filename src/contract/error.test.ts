import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES, ERROR_CODE_NAMES, codesOf, errorsTable } from './error.js'
import { ApiError } from '../domain/errors.js'

describe('ERROR_CODES: one entry per code, read by the docs and ApiError', () => {
  it("docs/api.md's errors table is the one generated from ERROR_CODES (npm run build && npm run docs:tables)", () => {
    const page = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')
    const block = /<!-- errors:begin -->\n([\s\S]*?)\n<!-- errors:end -->/.exec(page)
    expect(block, 'docs/api.md has its errors block').not.toBeNull()
    expect(block![1], 'run `npm run build && npm run docs:tables` to regenerate docs/api.md').toBe(errorsTable())
    for (const code of ERROR_CODE_NAMES) expect(block![1]).toContain(`| \`${code}\` |`)
  })

  it("an ApiError answers with its code's status", () => {
    for (const code of ERROR_CODE_NAMES) expect(new ApiError(code, 'x').status, code).toBe(ERROR_CODES[code].status)
    expect(new ApiError('duplicate_email', 'taken', 'email').toBody()).toEqual({
      error: { code: 'duplicate_email', message: 'taken', param: 'email' },
    })
  })

  it("codesOf lists a status's codes for a scope, codes of every route included", () => {
    expect(codesOf(400, 'api')).toContain('invalid_email')
    expect(codesOf(400, 'controls')).not.toContain('invalid_email')
    expect(codesOf(400, 'controls')).toContain('invalid_json')
    expect(codesOf(403)).toEqual(['forbidden_host', 'forbidden_origin', 'forbidden'])
  })
})
