/**
 * Byte- and chunk-shape fuzzing of the standalone server (issue 11): the fuzz cases of
 * `endpoints.ts` written by hand on a raw socket instead of through fetch, so the same request
 * arrives as one write, split at random points (inside the headers too), as 1-byte chunks or as
 * random chunks with extensions — and must get the answer the oracle expects. Then broken shapes
 * (a body cut short, headers cut short, random bytes in a header line, random bytes instead of a
 * request, a lying chunk size): each must still be answered — a documented status, the error
 * object — never a 5xx nobody asked for, never silence.
 */
import fc from 'fast-check'
import net from 'node:net'
import { createSandbox, type SandboxOptions } from '../../src/index.js'
import { startServer, type RunningServer } from '../../src/transports/http-server.js'
import { ENDPOINTS } from './endpoints.js'
import {
  describeRequest,
  DOCUMENTED,
  EMPTY_CONTEXT,
  errorShapeProblem,
  FUZZ_SANDBOX,
  seedFor,
  type EndpointFuzz,
  type FuzzCase,
  type FuzzReport,
  type FuzzRequest,
  type Wire,
  type WireResponse,
} from './fuzz-kit.js'
import { seededRandom } from '../../src/domain/random.js'

/** How a well-formed request is framed on the wire. */
export type FramingShape = 'one write' | 'split writes' | '1-byte chunks' | 'random chunks'

/** Ways to break a request. */
export type BrokenShape =
  | 'body cut short'
  | 'chunked body cut short'
  | 'headers cut short'
  | 'random header bytes'
  | 'random bytes'
  | 'lying chunk size'

const FRAMINGS: FramingShape[] = ['one write', 'split writes', '1-byte chunks', 'random chunks']
const BROKEN: BrokenShape[] = [
  'body cut short',
  'chunked body cut short',
  'headers cut short',
  'random header bytes',
  'random bytes',
  'lying chunk size',
]

/** 1-byte chunks only for bodies the server reads whole in that shape (it refuses more than 65,536 pieces). */
const MAX_TINY_CHUNKED = 16_384
const DEADLINE_MS = 10_000

/** What came back on one connection, parsed. */
interface RawAnswer {
  response?: WireResponse
  raw: string
}

/** The sandbox's own seeded PRNG (mulberry32), so a wire's choices repeat with its seed. */
const prng = seededRandom

/** The request's head and body as fetch would send them (same header merging, default Content-Type, URL serialisation). */
function asFetchWould(
  request: FuzzRequest,
  port: number,
): { head: string[]; body: Buffer | undefined; target: string } {
  const url = new URL(`http://127.0.0.1:${port}${request.path}`)
  const merged = new Map<string, { name: string; values: string[] }>()
  for (const [name, value] of request.headers) {
    const key = name.toLowerCase()
    const entry = merged.get(key) ?? { name: key, values: [] }
    entry.values.push(value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ''))
    merged.set(key, entry)
  }
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === 'string'
        ? Buffer.from(request.body, 'utf8')
        : Buffer.from(request.body)
  if (typeof request.body === 'string' && !merged.has('content-type'))
    merged.set('content-type', { name: 'content-type', values: ['text/plain;charset=UTF-8'] })
  const head = [
    `${request.method} ${url.pathname}${url.search} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: close',
  ]
  for (const { name, values } of merged.values()) head.push(`${name}: ${values.join(', ')}`)
  return { head, body, target: `${url.pathname}${url.search}` }
}

function chunked(body: Buffer, size: (left: number) => number, extension: () => string): Buffer[] {
  const parts: Buffer[] = []
  for (let offset = 0; offset < body.length;) {
    const n = Math.max(1, Math.min(size(body.length - offset), body.length - offset))
    parts.push(
      Buffer.from(`${n.toString(16)}${extension()}\r\n`, 'latin1'),
      body.subarray(offset, offset + n),
      Buffer.from('\r\n'),
    )
    offset += n
  }
  parts.push(Buffer.from('0\r\n\r\n'))
  // Many tiny buffers: join them into writes of ≤ 64 KiB so the client side stays cheap.
  const writes: Buffer[] = []
  let pending: Buffer[] = []
  let pendingSize = 0
  for (const part of parts) {
    pending.push(part)
    pendingSize += part.length
    if (pendingSize >= 65_536) {
      writes.push(Buffer.concat(pending))
      pending = []
      pendingSize = 0
    }
  }
  if (pending.length > 0) writes.push(Buffer.concat(pending))
  return writes
}

/** Splits `bytes` at `cuts` random points. */
function splitAt(bytes: Buffer, random: () => number, cuts: number): Buffer[] {
  const points = Array.from({ length: cuts }, () => Math.floor(random() * bytes.length)).sort((a, b) => a - b)
  const parts: Buffer[] = []
  let last = 0
  for (const point of points) {
    if (point > last) parts.push(bytes.subarray(last, point))
    last = Math.max(last, point)
  }
  parts.push(bytes.subarray(last))
  return parts
}

/** The bytes of a well-formed request in one framing shape. */
export function framed(request: FuzzRequest, port: number, shape: FramingShape, random: () => number): Buffer[] {
  const { head, body } = asFetchWould(request, port)
  const withBody = body !== undefined
  if (!withBody || shape === 'one write' || shape === 'split writes') {
    const bytes = Buffer.concat([
      Buffer.from(
        `${[...head, ...(withBody ? [`content-length: ${body.length}`] : [])].join('\r\n')}\r\n\r\n`,
        'latin1',
      ),
      body ?? Buffer.alloc(0),
    ])
    return shape === 'split writes' ? splitAt(bytes, random, 1 + Math.floor(random() * 8)) : [bytes]
  }
  const start = Buffer.from(`${[...head, 'transfer-encoding: chunked'].join('\r\n')}\r\n\r\n`, 'latin1')
  if (shape === '1-byte chunks')
    return [
      start,
      ...chunked(
        body,
        () => 1,
        () => '',
      ),
    ]
  return [
    start,
    ...chunked(
      body,
      () => 1 + Math.floor(random() * 4096),
      () => (random() < 0.2 ? ';ext=1' : ''),
    ),
  ]
}

/** The bytes of a broken request. */
export function broken(request: FuzzRequest, port: number, shape: BrokenShape, random: () => number): Buffer[] {
  const { head, body } = asFetchWould(request, port)
  const payload = body ?? Buffer.from('{"to":"ana@example.com"}')
  const method = body === undefined ? 'POST' : head[0].split(' ')[0]
  const line = [`${method} ${head[0].split(' ')[1]} HTTP/1.1`, ...head.slice(1)]
  switch (shape) {
    case 'body cut short': {
      const sent = Math.floor(random() * payload.length)
      return [
        Buffer.from(
          `${[...line, `content-length: ${payload.length + 1 + Math.floor(random() * 1000)}`].join('\r\n')}\r\n\r\n`,
          'latin1',
        ),
        payload.subarray(0, sent),
      ]
    }
    case 'chunked body cut short': {
      const writes = Buffer.concat(
        chunked(
          payload,
          () => 1 + Math.floor(random() * 64),
          () => '',
        ),
      )
      return [
        Buffer.from(`${[...line, 'transfer-encoding: chunked'].join('\r\n')}\r\n\r\n`, 'latin1'),
        writes.subarray(0, Math.floor(random() * (writes.length - 5))),
      ]
    }
    case 'headers cut short': {
      const text = Buffer.from(`${line.join('\r\n')}\r\n\r\n`, 'latin1')
      return [text.subarray(0, 1 + Math.floor(random() * (text.length - 2)))]
    }
    case 'random header bytes': {
      const junk = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 256)))
      const at = 1 + Math.floor(random() * (line.length - 1))
      const target = Buffer.from(line[at], 'latin1')
      const cut = Math.floor(random() * (target.length + 1))
      const lines = line.map((l) => Buffer.from(l, 'latin1'))
      lines[at] = Buffer.concat([target.subarray(0, cut), junk, target.subarray(cut)])
      const headBytes = Buffer.concat([
        ...lines.flatMap((l) => [l, Buffer.from('\r\n')]),
        Buffer.from(`content-length: ${payload.length}\r\n\r\n`),
      ])
      return [headBytes, payload]
    }
    case 'random bytes':
      return [Buffer.from(Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256)))]
    case 'lying chunk size':
      return [
        Buffer.from(`${[...line, 'transfer-encoding: chunked'].join('\r\n')}\r\n\r\n`, 'latin1'),
        Buffer.from(`${(payload.length + 10).toString(16)}\r\n`),
        payload,
        Buffer.from('\r\n0\r\n\r\n'),
      ]
  }
}

/** Parses the first answer on a connection (skipping `100 Continue`), body de-chunked. */
function parseAnswer(bytes: Buffer): RawAnswer {
  const raw = bytes.toString('latin1')
  let offset = 0
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', offset)
    if (end === -1) return { raw }
    const headText = bytes.subarray(offset, end).toString('latin1')
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(headText)?.[1])
    if (!Number.isFinite(status)) return { raw }
    if (status === 100) {
      offset = end + 4
      continue
    }
    const headers = new Headers()
    for (const line of headText.split('\r\n').slice(1)) {
      const colon = line.indexOf(':')
      if (colon > 0) {
        try {
          headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
        } catch {
          // a value Headers refuses: not one of ours
        }
      }
    }
    let body = bytes.subarray(end + 4)
    if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
      const parts: Buffer[] = []
      let at = 0
      for (;;) {
        const lineEnd = body.indexOf('\r\n', at)
        if (lineEnd === -1) break
        const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16)
        if (!Number.isFinite(size) || size === 0) break
        parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
        at = lineEnd + 2 + size + 2
      }
      body = Buffer.concat(parts)
    } else if (headers.has('content-length')) {
      body = body.subarray(0, Number(headers.get('content-length')))
    }
    return { raw, response: { status, headers, text: body.toString('utf8') } }
  }
}

/** Writes `parts`, half-closes, and collects everything until the server closes (or the deadline). */
function sendRaw(port: number, parts: Buffer[]): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const received: Buffer[] = []
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parseAnswer(Buffer.concat(received)))
    }
    const timer = setTimeout(finish, DEADLINE_MS)
    socket.on('data', (chunk) => received.push(chunk))
    socket.on('close', finish)
    socket.on('error', () => undefined) // EPIPE / ECONNRESET once the server has answered and hung up
    socket.once('connect', async () => {
      for (const part of parts) {
        if (done || socket.destroyed) return
        if (!socket.write(part))
          await new Promise<void>((resume) => {
            socket.once('drain', resume)
            socket.once('close', resume)
          })
      }
      if (!socket.destroyed) socket.end()
    })
  })
}

/** The standalone server reached over raw sockets, every request framed in a shape drawn from `seed`. */
export async function rawWire(
  options: SandboxOptions,
  seed: number,
  shapes: readonly FramingShape[] = FRAMINGS,
): Promise<Wire & { running: RunningServer }> {
  const sandbox = createSandbox({ ...FUZZ_SANDBOX, baseUrl: 'http://127.0.0.1:4010/v1', ...options })
  const running = await startServer(sandbox, { port: 0 })
  const random = prng(seed)
  return {
    name: 'http',
    sandbox,
    running,
    send: async (request) => {
      const size =
        request.body === undefined
          ? 0
          : typeof request.body === 'string'
            ? Buffer.byteLength(request.body)
            : request.body.byteLength
      const allowed = shapes.filter((shape) => shape !== '1-byte chunks' || size <= MAX_TINY_CHUNKED)
      const shape = allowed[Math.floor(random() * allowed.length)]
      const answer = await sendRaw(running.port, framed(request, running.port, shape, random))
      if (!answer.response)
        throw new Error(
          `no answer to ${describeRequest(request)} framed as ${shape}: ${JSON.stringify(answer.raw.slice(0, 200))}`,
        )
      return answer.response
    },
    dispose: async () => {
      await running.close()
      sandbox.dispose()
    },
  }
}

/** One broken request: which endpoint's case, which break. */
interface BrokenCase {
  fuzzCase: FuzzCase
  shape: BrokenShape
  seed: number
}

/** Tallies of a broken-shape run. */
export interface BrokenReport {
  runs: number
  answered: number
  /** Connections with no answer where none is owed (only CR/LF bytes: no request was started). */
  nothingAsked: number
  unanswered: number
  unexplained5xx: number
  statuses: Record<number, number>
  failure?: string
}

/**
 * Sends `runs` broken requests (cases of every endpoint, broken in one of {@link BROKEN} ways) to
 * one server and checks each is answered with a documented status and the error object (or a
 * normal answer, when the break left a valid request), never a 5xx, never silence.
 */
export async function fuzzBrokenShapes(runs: number, baseSeed: number): Promise<BrokenReport> {
  const sandbox = createSandbox({ ...FUZZ_SANDBOX, baseUrl: 'http://127.0.0.1:4010/v1' })
  const running = await startServer(sandbox, {
    port: 0,
    timeouts: { headersMs: 2_000, requestMs: 4_000, checkIntervalMs: 250 },
  })
  const report: BrokenReport = { runs: 0, answered: 0, nothingAsked: 0, unanswered: 0, unexplained5xx: 0, statuses: {} }
  const arbitraries = ENDPOINTS.filter((e: EndpointFuzz) => !e.setup && !e.options).map((e) => e.cases(EMPTY_CONTEXT))
  const brokenCase: fc.Arbitrary<BrokenCase> = fc.record({
    fuzzCase: fc.oneof(...arbitraries),
    shape: fc.constantFrom(...BROKEN),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  })
  try {
    const property = fc.asyncProperty(brokenCase, async ({ fuzzCase, shape, seed }) => {
      const bytes = broken(fuzzCase.request, running.port, shape, prng(seed))
      const answer = await sendRaw(running.port, bytes)
      sandbox.faults.clear()
      report.runs++
      const onlyLineBreaks = Buffer.concat(bytes).every((b) => b === 0x0d || b === 0x0a)
      if (!answer.response) {
        if (onlyLineBreaks) {
          report.nothingAsked++
          return
        }
        report.unanswered++
        throw new Error(
          `[${shape}] no answer; sent ${JSON.stringify(Buffer.concat(bytes).toString('latin1').slice(0, 300))}; got ${JSON.stringify(answer.raw.slice(0, 200))}`,
        )
      }
      report.answered++
      const { status, text } = answer.response
      report.statuses[status] = (report.statuses[status] ?? 0) + 1
      const problems: string[] = []
      const options =
        fuzzCase.expect.kind === 'exact'
          ? [fuzzCase.expect]
          : fuzzCase.expect.kind === 'oneOf'
            ? fuzzCase.expect.options
            : []
      // A 5xx is explained only when the request asked for one (a fault or `Prefer: code=5xx`).
      if (status >= 500 && (/"code":"internal_error"/.test(text) || !options.some((o) => o.status.includes(status)))) {
        report.unexplained5xx++
        problems.push(`unexplained ${status}`)
      } else if (status < 500 && !DOCUMENTED.has(status) && status !== 403) {
        problems.push(`undocumented status ${status}`)
      }
      if (status !== 200) {
        try {
          const problem = errorShapeProblem(JSON.parse(text))
          if (problem) problems.push(problem)
        } catch {
          problems.push(`error body is not JSON: ${JSON.stringify(text.slice(0, 100))}`)
        }
      }
      if (problems.length > 0) {
        throw new Error(
          `[${shape}] ${problems.join('; ')}; sent ${JSON.stringify(Buffer.concat(bytes).toString('latin1').slice(0, 300))}; answer ${status} ${text.slice(0, 200)}`,
        )
      }
    })
    const result = await fc.check(property, {
      numRuns: runs,
      seed: seedFor(baseSeed, 'broken shapes'),
      endOnFailure: true,
    })
    if (result.failed) {
      const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)
      report.failure = `broken shapes failed after ${result.numRuns} runs (seed ${seedFor(baseSeed, 'broken shapes')}, path ${result.counterexamplePath}):\n${cause}`
    }
    const health = await fetch(`${running.url}/__sandbox/health`)
    if (health.status !== 200)
      report.failure = `${report.failure ?? ''}\nhealth check after fuzzing answered ${health.status}`
  } finally {
    await running.close()
    sandbox.dispose()
  }
  return report
}

export type { FuzzReport }
