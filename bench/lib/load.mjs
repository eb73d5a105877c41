/**
 * Load generation with autocannon (a devDependency, run in-process: no global tools).
 */
import autocannon from 'autocannon'
import { cpuSeconds } from './processes.mjs'

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

/**
 * Warms a target up, then measures it: requests/s (the median of the one-second samples, and
 * the mean), p50 and p99 latency in ms, the server's CPU µs per request when `pid` is given,
 * and how many answers were not 2xx (a benchmark whose answers are errors measures nothing,
 * so the caller checks `non2xx`).
 */
export async function measure({
  url,
  method = 'GET',
  headers = {},
  body,
  connections = 50,
  warmupSeconds = 3,
  seconds = 10,
  pid,
}) {
  const base = { url, method, headers, body, connections, pipelining: 1 }
  if (warmupSeconds > 0) await run({ ...base, duration: warmupSeconds })
  const cpuBefore = pid === undefined ? undefined : cpuSeconds(pid)
  const result = await run({ ...base, duration: seconds })
  const cpuAfter = pid === undefined ? undefined : cpuSeconds(pid)
  const answered = result.requests.total ?? result.requests.sent
  return {
    cpuUsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / answered,
    rps: result.requests.p50,
    rpsMean: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total ?? result.requests.sent,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

/** {@link measure} of one of the bench's endpoints (`benchEndpoints`: path, method, headers, body) on the server at `port`. */
export function measureEndpoint(port, endpoint, options = {}) {
  const { path, method, headers, body } = endpoint
  return measure({ url: `http://127.0.0.1:${port}${path}`, method, headers, body, ...options })
}
