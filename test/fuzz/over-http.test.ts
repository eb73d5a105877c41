/**
 * Property-based fuzzing of every endpoint over HTTP (the standalone server on an ephemeral loopback port, keep-alive fetch): a hundred
 * seeded cases each. `npm run fuzz` runs the same properties ≥ 10,000 times per endpoint.
 * FUZZ_RUNS and FUZZ_SEED override the count and the seed (a failure prints its seed).
 */
import { describe, expect, it } from 'vitest'
import { ENDPOINTS } from './endpoints.js'
import { fuzzEndpoint, httpWire } from './fuzz-kit.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 100)
const SEED = Number(process.env.FUZZ_SEED ?? 20261121)

describe(`fuzzing over HTTP (${RUNS} cases per endpoint, seed ${SEED})`, () => {
  for (const endpoint of ENDPOINTS) {
    it(
      endpoint.name,
      async () => {
        const report = await fuzzEndpoint(endpoint, httpWire, RUNS, SEED)
        expect(report.failure, report.failure).toBeUndefined()
        expect(report.runs).toBeGreaterThanOrEqual(RUNS)
      },
      60_000,
    )
  }
})
