import { describe, expect, it } from 'vitest'
import { ApiError } from './errors.js'
import { Faults, MAX_FAULTS } from './faults.js'

describe('Faults', () => {
  it('fires the first fault armed, whether it names the path or not (index by path keeps list order)', () => {
    const faults = new Faults(() => 0)
    faults.add({ status: 500, path: '/v1/sms/send', method: 'GET' })
    faults.add({ status: 502 })
    faults.add({ status: 503, path: '/v1/sms/send' })
    expect(faults.match('POST', '/v1/sms/send')?.status).toBe(502)
    expect(faults.match('GET', '/v1/sms/send')?.status).toBe(500)
    const ordered = new Faults(() => 0)
    ordered.add({ status: 503, path: '/v1/sms/send', times: 1 })
    ordered.add({ status: 502 })
    expect(ordered.match('POST', '/v1/sms/send')?.status).toBe(503)
    expect(ordered.match('POST', '/v1/sms/send')?.status).toBe(502)
    expect(ordered.list().map((f) => f.status)).toEqual([502])
  })

  it('a fault for another path never fires; an expired one leaves list and index', () => {
    const faults = new Faults(() => 0)
    faults.add({ status: 500, path: '/v1/email/send', times: 2 })
    expect(faults.match('POST', '/v1/sms/send')).toBeUndefined()
    expect(faults.match('POST', '/v1/email/send')?.remaining).toBe(1)
    expect(faults.match('POST', '/v1/email/send')?.remaining).toBe(0)
    expect(faults.match('POST', '/v1/email/send')).toBeUndefined()
    expect(faults.size).toBe(0)
  })

  it(`keeps at most ${MAX_FAULTS} armed (400 invalid_parameter beyond), and paths/codes of at most 1 KiB`, () => {
    const faults = new Faults(() => 0)
    for (let i = 0; i < MAX_FAULTS; i++) faults.add({ status: 500, path: `/v1/p${i}` })
    expect(() => faults.add({ status: 500 })).toThrow(ApiError)
    try {
      faults.add({ status: 500 })
    } catch (error) {
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_parameter',
        message: expect.stringMatching(/1000 faults are armed already.*DELETE \/__sandbox\/faults/),
      })
    }
    expect(faults.match('GET', `/v1/p${MAX_FAULTS - 1}`)?.status).toBe(500)
    faults.clear()
    expect(() => faults.add({ status: 500, path: `/${'a'.repeat(1024)}` })).toThrow(/at most 1024 characters/)
    expect(() => faults.add({ status: 500, code: 'a'.repeat(2000) })).toThrow(/at most 1024 characters/)
    expect(faults.size).toBe(0)
  })
})
