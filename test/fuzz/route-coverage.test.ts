import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../src/http/routes.js'
import { ENDPOINTS, HAND_WRITTEN } from './endpoints.js'
import { fuzzName, judgedGenerically, NOT_FUZZED, takesInput } from './schema-fuzz.js'

/**
 * Every route that takes input (a body, a query or a path parameter) is fuzzed: by hand
 * (`endpoints.ts`, sharper oracles) or from its schemas (`schema-fuzz.ts`, which needs no edit for a
 * new route), or named in `NOT_FUZZED` with the reason.
 */
describe('fuzz coverage of the route table', () => {
  it('fuzzes every route that takes input, or says why not', () => {
    const fuzzed = new Set(ENDPOINTS.map((e) => e.name))
    const missing = ROUTES.filter(takesInput)
      .map(fuzzName)
      .filter((name) => !fuzzed.has(name) && NOT_FUZZED[name] === undefined)
    expect(
      missing,
      'routes that take input, neither fuzzed nor listed in NOT_FUZZED (test/fuzz/schema-fuzz.ts)',
    ).toEqual([])
    const stale = Object.keys(NOT_FUZZED).filter((name) => !ROUTES.some((route) => fuzzName(route) === name))
    expect(stale, 'NOT_FUZZED names a route the table no longer has').toEqual([])
  })

  it('fuzzes from the schemas every route that takes input and answers JSON or nothing, unless fuzzed by hand', () => {
    const generic = ROUTES.filter(
      (route) =>
        takesInput(route) &&
        judgedGenerically(route) &&
        NOT_FUZZED[fuzzName(route)] === undefined &&
        !HAND_WRITTEN.some((endpoint) => endpoint.name === fuzzName(route)),
    )
    expect(generic.length).toBeGreaterThan(0)
    for (const route of generic) expect(ENDPOINTS.map((e) => e.name)).toContain(fuzzName(route))
    const unjudged = ROUTES.filter((route) => takesInput(route) && !judgedGenerically(route))
      .map(fuzzName)
      .filter((name) => NOT_FUZZED[name] === undefined && !HAND_WRITTEN.some((endpoint) => endpoint.name === name))
    expect(
      unjudged,
      'routes answering HTML, a PNG, text or a stream: fuzz them by hand or list them in NOT_FUZZED',
    ).toEqual([])
  })
})
