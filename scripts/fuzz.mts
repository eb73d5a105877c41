/**
 * `npm run fuzz`: the fuzz properties of test/fuzz at length — ≥ 10,000 generated requests per
 * endpoint, in-process (msw) and over HTTP (the standalone server on an ephemeral loopback port).
 * Prints one line per endpoint and wire with the count and the statuses seen, then the totals.
 * Exits 1 on the first property that fails (its seed and the shrunk request are printed).
 *
 *   npm run fuzz -- --runs 20000 --seed 7 --wire http --only subscribers
 */
import { parseArgs } from 'node:util'
import { ENDPOINTS } from '../test/fuzz/endpoints.js'
import { fuzzEndpoint, httpWire, inProcessWire, type FuzzReport } from '../test/fuzz/fuzz-kit.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 2_147_483_647) },
    wire: { type: 'string', default: 'both' },
    only: { type: 'string' },
  },
})
const runs = Number(values.runs)
const seed = Number(values.seed)
const wires = values.wire === 'both' ? ['in-process', 'http'] : [values.wire!]
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed) || !wires.every((w) => w === 'in-process' || w === 'http')) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S] [--wire in-process|http|both] [--only TEXT]')
  process.exit(2)
}

console.log(`sendbox fuzz: ${runs} cases per endpoint and wire, seed ${seed}, wires ${wires.join(' + ')}`)
const reports: FuzzReport[] = []
const started = performance.now()
for (const wire of wires) {
  for (const endpoint of ENDPOINTS) {
    if (values.only && !endpoint.name.includes(values.only)) continue
    const report = await fuzzEndpoint(endpoint, wire === 'http' ? httpWire : inProcessWire, runs, seed)
    reports.push(report)
    const statuses = Object.entries(report.statuses).map(([status, count]) => `${status}:${count}`).join(' ')
    console.log(`${report.failure ? 'FAIL' : 'ok  '} ${wire.padEnd(10)} ${endpoint.name.padEnd(30)} ${String(report.runs).padStart(7)} requests ${String(Math.round(report.runs / (report.ms / 1000))).padStart(6)}/s  ${statuses}`)
    if (report.failure) {
      console.error(report.failure)
      process.exitCode = 1
      break
    }
  }
  if (process.exitCode) break
}
const total = reports.reduce((sum, r) => sum + r.runs, 0)
const byStatus: Record<string, number> = {}
for (const report of reports) for (const [status, count] of Object.entries(report.statuses)) byStatus[status] = (byStatus[status] ?? 0) + count
console.log(`\n${reports.length} endpoint×wire runs, ${total} requests in ${((performance.now() - started) / 1000).toFixed(1)} s; minimum per endpoint ${Math.min(...reports.map((r) => r.runs))}`)
console.log(`statuses: ${JSON.stringify(byStatus)} (5xx only where a fault or Prefer asked for one)`)
console.log(process.exitCode ? 'FAILED' : 'all properties held')
