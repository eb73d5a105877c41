/**
 * Byte- and chunk-shape fuzzing over raw sockets (issue 11): every endpoint's cases framed as one
 * write, random splits, 1-byte chunks or random chunks get the oracle's answer; broken requests
 * (cut short, random header bytes, random bytes, lying chunk sizes) are all answered with the
 * error object, never a 5xx nobody asked for. `npm run fuzz` runs both at length.
 */
import { describe, expect, it } from 'vitest'
import { ENDPOINTS } from './endpoints.js'
import { fuzzEndpoint } from './fuzz-kit.js'
import { fuzzBrokenShapes, rawWire } from './wire-shapes.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 40)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

describe(`byte- and chunk-shape fuzzing over raw sockets (${RUNS} cases per endpoint, seed ${SEED})`, () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: any framing, same answer`, async () => {
      const report = await fuzzEndpoint(endpoint, (options) => rawWire(options, SEED), RUNS, SEED)
      expect(report.failure, report.failure).toBeUndefined()
    }, 60_000)
  }

  it('broken requests: every one answered, no unexplained 5xx', async () => {
    const report = await fuzzBrokenShapes(RUNS * 5, SEED)
    expect(report.failure, report.failure).toBeUndefined()
    expect(report.unanswered).toBe(0)
    expect(report.unexplained5xx).toBe(0)
    expect(report.answered + report.nothingAsked).toBe(report.runs)
  }, 120_000)
})
