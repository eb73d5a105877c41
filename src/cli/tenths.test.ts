import { describe, expect, it } from 'vitest'
import { tenths } from './run.js'

describe('tenths (the log line duration)', () => {
  it('reads as toFixed(1) for the durations a request takes', () => {
    for (const ms of [0, 0.04, 0.05, 0.06, 0.94, 0.96, 1, 1.25, 9.99, 12.345, 999.9, 1234.56, 86_400_000.7]) {
      expect(tenths(ms)).toBe((Math.round(ms * 10) / 10).toFixed(1))
    }
  })
  it('falls back to toFixed for what no request takes', () => {
    for (const ms of [-1, Number.NaN, Infinity, 1e12]) expect(tenths(ms)).toBe(ms.toFixed(1))
  })
})
