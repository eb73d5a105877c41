/**
 * `npm run fuzz`: the fuzz properties of test/fuzz at length — ≥ 10,000 generated requests per
 * endpoint, in-process (msw), over HTTP (the standalone server on an ephemeral loopback port,
 * through fetch) and raw (the same requests written by hand on a socket: one write, random
 * splits, 1-byte chunks, random chunks), then broken requests (bodies and headers cut short,
 * random header bytes, random bytes, lying chunk sizes) that must all be answered.
 * Prints one line per endpoint and wire with the count and the statuses seen, then the totals,
 * the unexplained 5xx and the unanswered requests. Exits 1 on the first property that fails
 * (its seed and the shrunk request are printed).
 *
 *   npm run fuzz -- --runs 20000 --seed 7 --wire http --only subscribers
 *   npm run fuzz -- --wire raw --runs 2000
 */
import { parseArgs } from 'node:util'
import { ENDPOINTS } from '../test/fuzz/endpoints.js'
import { fuzzEndpoint, httpWire, inProcessWire, type FuzzReport } from '../test/fuzz/fuzz-kit.js'
import { fuzzBrokenShapes, rawWire, type BrokenReport } from '../test/fuzz/wire-shapes.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 2_147_483_647) },
    wire: { type: 'string', default: 'all' },
    only: { type: 'string' },
  },
})
const runs = Number(values.runs)
const seed = Number(values.seed)
const wires =
  values.wire === 'all'
    ? ['in-process', 'http', 'raw']
    : values.wire === 'both'
      ? ['in-process', 'http']
      : [values.wire!]
if (
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(seed) ||
  !wires.every((w) => w === 'in-process' || w === 'http' || w === 'raw')
) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S] [--wire in-process|http|raw|both|all] [--only TEXT]')
  process.exit(2)
}

console.log(`sendbox fuzz: ${runs} cases per endpoint and wire, seed ${seed}, wires ${wires.join(' + ')}`)
const reports: FuzzReport[] = []
const started = performance.now()
for (const wire of wires) {
  for (const endpoint of ENDPOINTS) {
    if (values.only && !endpoint.name.includes(values.only)) continue
    const makeWire =
      wire === 'raw'
        ? (options: Parameters<typeof httpWire>[0]) => rawWire(options, seed)
        : wire === 'http'
          ? httpWire
          : inProcessWire
    const report = { ...(await fuzzEndpoint(endpoint, makeWire, runs, seed)), wire }
    reports.push(report)
    const statuses = Object.entries(report.statuses)
      .map(([status, count]) => `${status}:${count}`)
      .join(' ')
    console.log(
      `${report.failure ? 'FAIL' : 'ok  '} ${wire.padEnd(10)} ${endpoint.name.padEnd(30)} ${String(report.runs).padStart(7)} requests ${String(Math.round(report.runs / (report.ms / 1000))).padStart(6)}/s  ${statuses}`,
    )
    if (report.failure) {
      console.error(report.failure)
      process.exitCode = 1
      break
    }
  }
  if (process.exitCode) break
}
let broken: BrokenReport | undefined
if (!process.exitCode && wires.includes('raw') && !values.only) {
  broken = await fuzzBrokenShapes(runs, seed)
  console.log(
    `${broken.failure ? 'FAIL' : 'ok  '} raw        broken requests                ${String(broken.runs).padStart(7)} requests          ${Object.entries(
      broken.statuses,
    )
      .map(([status, count]) => `${status}:${count}`)
      .join(' ')}`,
  )
  if (broken.failure) {
    console.error(broken.failure)
    process.exitCode = 1
  }
}
const total = reports.reduce((sum, r) => sum + r.runs, 0) + (broken?.runs ?? 0)
const byStatus: Record<string, number> = {}
for (const report of reports)
  for (const [status, count] of Object.entries(report.statuses)) byStatus[status] = (byStatus[status] ?? 0) + count
console.log(
  `\n${reports.length} endpoint×wire runs, ${total} requests in ${((performance.now() - started) / 1000).toFixed(1)} s; minimum per endpoint ${Math.min(...reports.map((r) => r.runs))}`,
)
console.log(`statuses: ${JSON.stringify(byStatus)} (5xx only where a fault or Prefer asked for one)`)
if (broken)
  console.log(
    `broken requests: ${broken.answered} answered, ${broken.nothingAsked} with nothing asked (only line breaks sent), ${broken.unanswered} unanswered, ${broken.unexplained5xx} unexplained 5xx`,
  )
console.log(process.exitCode ? 'FAILED' : 'all properties held')
