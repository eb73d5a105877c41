/**
 * The fuzzing kit: transports (in-process msw and the standalone server over HTTP), the
 * invariants every answer must hold, and the runner shared by the vitest suites
 * (`test/fuzz/*.test.ts`, a hundred runs per endpoint) and `npm run fuzz` (`scripts/fuzz.mts`, ≥ 10,000).
 */
import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { createSandbox, type CapturedMessage, type Sandbox, type SandboxOptions } from '../../src/index.js'
import { startServer } from '../../src/transports/http-server.js'

/** One generated request: the path is origin-relative (`/v1/...` or `/__sandbox/...`), query included. */
export interface FuzzRequest {
  method: string
  path: string
  headers: Array<[string, string]>
  body?: string | Uint8Array
}

/** What came back, read whole. */
export interface WireResponse {
  status: number
  headers: Headers
  text: string
}

/** One answer the oracle accepts. */
export interface ExactExpectation {
  kind: 'exact'
  /** Allowed statuses. */
  status: number[]
  /** Allowed error codes (for non-200 answers). */
  code?: string[]
  /** The exact `error.param`, or a prefix it must start with. */
  param?: { exact: string } | { prefix: string }
}

/** What the oracle expects; `any` means "only the invariants"; `oneOf` accepts any of its options. */
export type Expectation = { kind: 'any' } | ExactExpectation | { kind: 'oneOf'; options: ExactExpectation[] }

/** A generated case: the request, what to expect, and an optional check of a 200 body. */
export interface FuzzCase {
  request: FuzzRequest
  expect: Expectation
  /** Checks a successful answer's body; returns a problem or undefined. */
  check200?: (body: unknown) => string | undefined
  /** Checks any success's body (2xx; undefined: no body, a 204); returns a problem or undefined. */
  checkSuccess?: (body: unknown) => string | undefined
  /** A label for reports (the variant that produced the case). */
  label: string
}

/** A way to send requests to a sandbox: in-process or over HTTP. */
export interface Wire {
  name: 'in-process' | 'http'
  sandbox: Sandbox
  send(request: FuzzRequest): Promise<WireResponse>
  dispose(): Promise<void>
}

/** The sandbox every fuzz run uses: limits high enough never to trip, deterministic seed. */
export const FUZZ_SANDBOX: SandboxOptions = {
  limits: { starter: 1_000_000, pro: 1_000_000, enterprise: 1_000_000 },
  deliveryMs: 0,
  maxMessages: 2_000,
  maxRequests: 500,
}

async function read(response: Response): Promise<WireResponse> {
  return { status: response.status, headers: response.headers, text: await response.text() }
}

function init(request: FuzzRequest): RequestInit {
  return { method: request.method, headers: request.headers, body: request.body as BodyInit | undefined }
}

/**
 * The sandbox under msw's `setupServer`, reached with global `fetch`. Only one may be open at a
 * time in a process (msw patches the globals).
 */
export function inProcessWire(options: SandboxOptions = {}): Wire {
  const sandbox = createSandbox({ ...FUZZ_SANDBOX, ...options })
  const server = setupServer(...sandbox.handlers)
  server.listen({ onUnhandledRequest: 'error' })
  const origin = new URL(sandbox.baseUrl).origin
  return {
    name: 'in-process',
    sandbox,
    send: async (request) => read(await fetch(origin + request.path, init(request))),
    dispose: async () => {
      server.close()
      sandbox.dispose()
    },
  }
}

/** The standalone server on an ephemeral loopback port, reached with global `fetch` (keep-alive). */
export async function httpWire(options: SandboxOptions = {}): Promise<Wire> {
  const sandbox = createSandbox({ ...FUZZ_SANDBOX, baseUrl: 'http://127.0.0.1:4010/v1', ...options })
  const running = await startServer(sandbox, { port: 0 })
  return {
    name: 'http',
    sandbox,
    send: async (request) => read(await fetch(running.url + request.path, init(request))),
    dispose: async () => {
      await running.close()
      sandbox.dispose()
    },
  }
}

/** Statuses of the reference's table that a request may get without asking for a fault. */
export const DOCUMENTED = new Set([200, 400, 401, 404, 429])

const STACK_MARKERS = [/\n\s*at\s+\S/, /node:internal/, /file:\/\//, /\/work\//, /node_modules/, /\.[cm]?[jt]s:\d+:\d+/]

/** A snapshot of the built-in prototypes: every own property and its value. */
function prototypeSnapshot(): Map<string, unknown> {
  const snapshot = new Map<string, unknown>()
  for (const [name, proto] of [
    ['Object', Object.prototype],
    ['Array', Array.prototype],
    ['Function', Function.prototype],
    ['String', String.prototype],
  ] as const) {
    for (const key of Reflect.ownKeys(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!
      snapshot.set(`${name}.${String(key)}`, 'value' in descriptor ? descriptor.value : descriptor.get)
    }
  }
  return snapshot
}

const PRISTINE = prototypeSnapshot()

/** Problems with the built-in prototypes since this module loaded (pollution). */
export function prototypeProblems(): string[] {
  const now = prototypeSnapshot()
  const problems: string[] = []
  for (const key of now.keys()) if (!PRISTINE.has(key)) problems.push(`added ${key}`)
  for (const [key, value] of PRISTINE) if (now.get(key) !== value) problems.push(`changed or removed ${key}`)
  const probe = {} as Record<string, unknown>
  for (const name of ['polluted', 'isAdmin', 'x']) if (probe[name] !== undefined) problems.push(`({}).${name} is set`)
  return problems
}

/**
 * Checks one answer against the invariants (documented status, the error object and nothing
 * else, JSON, no stack trace, rate headers on authenticated /v1 answers, no prototype change)
 * and then against the case's oracle. Returns the problems found.
 */
export function judge(
  fuzzCase: FuzzCase,
  response: WireResponse,
  allowedStatuses: ReadonlySet<number> = DOCUMENTED,
): string[] {
  const problems: string[] = []
  const { status, text } = response
  const success = status >= 200 && status < 300
  // A 204 carries no body and no Content-Type.
  if (status === 204 && text === '' && response.headers.get('content-type') === null) {
    const problems = prototypeProblems()
    const problem = fuzzCase.checkSuccess?.(undefined)
    if (problem) problems.push(problem)
    if (!allowedStatuses.has(204)) problems.push('undocumented status 204')
    return problems.concat(fuzzCase.expect.kind === 'any' ? [] : oracleMisses(fuzzCase.expect, status, undefined))
  }
  const options =
    fuzzCase.expect.kind === 'exact'
      ? [fuzzCase.expect]
      : fuzzCase.expect.kind === 'oneOf'
        ? fuzzCase.expect.options
        : []
  // A 5xx is fine only when the case asked for it (a fault or `Prefer: code=5xx`).
  const askedFor = status >= 500 && options.some((o) => o.status.includes(status))
  if (!allowedStatuses.has(status) && !askedFor) {
    problems.push(`undocumented status ${status}`)
  }
  if (!/^application\/json\b/i.test(response.headers.get('content-type') ?? ''))
    problems.push(`content-type ${response.headers.get('content-type')}`)
  for (const marker of STACK_MARKERS)
    if (marker.test(text)) problems.push(`stack trace or file path in the body (${marker})`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    problems.push('body is not JSON')
  }
  if (!success && body !== undefined) {
    const problem = errorShapeProblem(body)
    if (problem) problems.push(problem)
  }
  const parserAnswer = status === 400 && /"code":"invalid_request"/.test(text)
  // The path as the server sees it (`/v1/%2e%2e/__sandbox/x` is a control path).
  const pathname = new URL(`http://sandbox.invalid${fuzzCase.request.path}`).pathname
  // `/v1/__sandbox/...` is the sandbox's controls under its base URL (issue 14), not the API.
  const apiPath =
    (pathname === '/v1' || pathname.startsWith('/v1/')) &&
    pathname !== '/v1/__sandbox' &&
    !pathname.startsWith('/v1/__sandbox/')
  if (apiPath && status !== 401 && !parserAnswer && response.headers.get('x-ratelimit-limit') === null) {
    problems.push('authenticated /v1 answer without X-RateLimit-Limit')
  }
  problems.push(...prototypeProblems())
  if (fuzzCase.expect.kind !== 'any') problems.push(...oracleMisses(fuzzCase.expect, status, body))
  if (status === 200 && body !== undefined && fuzzCase.check200) {
    const problem = fuzzCase.check200(body)
    if (problem) problems.push(problem)
  }
  if (success && body !== undefined && fuzzCase.checkSuccess) {
    const problem = fuzzCase.checkSuccess(body)
    if (problem) problems.push(problem)
  }
  return problems
}

/** The oracle's verdict: nothing when one of its options accepts the answer. */
function oracleMisses(expect: Exclude<Expectation, { kind: 'any' }>, status: number, body: unknown): string[] {
  const options = expect.kind === 'exact' ? [expect] : expect.options
  const misses = options.map((option) => oracleProblems(option, status, body))
  return misses.every((m) => m.length > 0) ? [misses.map((m) => m.join(', ')).join(' / or / ')] : []
}

function oracleProblems(expect: ExactExpectation, status: number, body: unknown): string[] {
  const problems: string[] = []
  if (!expect.status.includes(status)) return [`expected status ${expect.status.join('|')}, got ${status}`]
  if ((status < 200 || status >= 300) && body !== undefined) {
    const error = (body as { error?: { code?: string; param?: string } }).error
    if (expect.code && !expect.code.includes(error?.code ?? ''))
      problems.push(`expected code ${expect.code.join('|')}, got ${error?.code}`)
    if (expect.param && 'exact' in expect.param && error?.param !== expect.param.exact)
      problems.push(`expected param ${JSON.stringify(expect.param.exact)}, got ${JSON.stringify(error?.param)}`)
    if (expect.param && 'prefix' in expect.param && !(error?.param ?? '').startsWith(expect.param.prefix))
      problems.push(
        `expected param starting ${JSON.stringify(expect.param.prefix)}, got ${JSON.stringify(error?.param)}`,
      )
  }
  return problems
}

/** The error object: `{ error: { code, message, param? } }` and nothing more. */
export function errorShapeProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'error body is not an object'
  const keys = Object.keys(body)
  if (keys.length !== 1 || keys[0] !== 'error') return `error body has keys ${JSON.stringify(keys)}`
  const error = (body as { error: unknown }).error
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return 'error is not an object'
  for (const key of Object.keys(error))
    if (!['code', 'message', 'param'].includes(key)) return `error has extra key ${JSON.stringify(key)}`
  const { code, message, param } = error as Record<string, unknown>
  if (typeof code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(code))
    return `error.code ${JSON.stringify(code)} is not snake_case`
  if (typeof message !== 'string' || message.length === 0) return 'error.message is not a non-empty string'
  if (param !== undefined && typeof param !== 'string') return 'error.param is not a string'
  return undefined
}

/** A fuzzed endpoint: how to prepare a fresh sandbox, and the cases to throw at it. */
export interface EndpointFuzz {
  name: string
  /** Sandbox options on top of {@link FUZZ_SANDBOX}. */
  options?: SandboxOptions
  /** Prepares state (creates subscribers, messages) and returns facts the cases need. */
  setup?: (wire: Wire) => Promise<FuzzContext>
  cases: (context: FuzzContext) => fc.Arbitrary<FuzzCase>
  /** Statuses an answer may have without asking for them (default {@link DOCUMENTED}). */
  statuses?: ReadonlySet<number>
  /** Runs after every case (for example: clear the faults a case injected). */
  after?: (wire: Wire) => Promise<void>
}

/** Facts from setup: ids that exist, totals the lists must report. */
export interface FuzzContext {
  subscriberIds: string[]
  subscriberTotal: number
  messageIds: string[]
  messageTotal: number
  /** The captured messages after setup, read from the domain (what a filter must select from). */
  messages?: CapturedMessage[]
}

/** The context of an endpoint that needs no setup. */
export const EMPTY_CONTEXT: FuzzContext = { subscriberIds: [], subscriberTotal: 0, messageIds: [], messageTotal: 0 }

/** What a run did. */
export interface FuzzReport {
  endpoint: string
  wire: string
  runs: number
  statuses: Record<number, number>
  ms: number
  seed: number
  failure?: string
}

/** Node's limit on the request line plus headers; past it the HTTP parser answers before any handler. */
const MAX_HEADER_BYTES = 16 * 1024
const TOO_LARGE: ExactExpectation = { kind: 'exact', status: [400], code: ['invalid_request'] }

/**
 * The same case as the standalone server sees it: a request line plus headers over 16 KiB never
 * reaches the handlers (400 invalid_request). Near the limit either answer is right, since the
 * client adds headers of its own (host, user-agent, …).
 */
export function overTransport(fuzzCase: FuzzCase, wire: Wire['name']): FuzzCase {
  if (wire !== 'http') return fuzzCase
  fuzzCase = formStyleControl(fuzzCase)
  const url = new URL(`http://127.0.0.1${fuzzCase.request.path}`)
  const size =
    fuzzCase.request.method.length +
    url.pathname.length +
    url.search.length +
    fuzzCase.request.headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0)
  if (size < MAX_HEADER_BYTES - 1024) return fuzzCase
  if (size > MAX_HEADER_BYTES)
    return { ...fuzzCase, expect: TOO_LARGE, label: `${fuzzCase.label} (headers over 16 KiB)` }
  const options =
    fuzzCase.expect.kind === 'oneOf'
      ? fuzzCase.expect.options
      : fuzzCase.expect.kind === 'exact'
        ? [fuzzCase.expect]
        : undefined
  return { ...fuzzCase, expect: options ? { kind: 'oneOf', options: [...options, TOO_LARGE] } : fuzzCase.expect }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH'])
const JSON_TYPE = /^application\/json[ \t]*(?:;|$)/i

/**
 * The standalone server refuses a state change under `/__sandbox` whose body is not declared
 * JSON (form-style CSRF, issue 11) before the handlers see it: 400 `invalid_content_type`. The
 * Content-Type is the one fetch sends: a string body without one goes as `text/plain;charset=UTF-8`.
 */
function formStyleControl(fuzzCase: FuzzCase): FuzzCase {
  const { method, path, headers, body } = fuzzCase.request
  if (!STATE_CHANGING.has(method.toUpperCase())) return fuzzCase
  const pathname = new URL(`http://sandbox.invalid${path}`).pathname
  if (pathname !== '/__sandbox' && !pathname.startsWith('/__sandbox/')) return fuzzCase
  const given = headers.filter(([name]) => name.toLowerCase() === 'content-type').map(([, value]) => value.trim())
  const contentType =
    given.length > 0 ? given.join(', ') : typeof body === 'string' ? 'text/plain;charset=UTF-8' : undefined
  const size = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
  const refused = contentType !== undefined ? !JSON_TYPE.test(contentType) : size > 0
  return refused
    ? {
        ...fuzzCase,
        expect: { kind: 'exact', status: [400], code: ['invalid_content_type'] },
        label: `${fuzzCase.label} (form-style body to a control)`,
      }
    : fuzzCase
}

/** A stable per-endpoint seed derived from a base seed. */
export function seedFor(base: number, name: string): number {
  let hash = base | 0
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0
  return hash
}

/** Shortens a request for a failure message (bodies can be megabytes). */
export function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? request.body
        : `<${request.body.byteLength} bytes>`
  const shown = body.length > 300 ? `${body.slice(0, 300)}…(${body.length} chars)` : body
  return `${request.method} ${request.path.length > 200 ? `${request.path.slice(0, 200)}…` : request.path} ${JSON.stringify(request.headers)} ${shown}`
}

/**
 * Fuzzes one endpoint through one wire: a fresh sandbox, `runs` generated cases, each judged;
 * finally the server must still answer its health check. Never throws: a failure is reported.
 */
export async function fuzzEndpoint(
  endpoint: EndpointFuzz,
  makeWire: (options: SandboxOptions) => Wire | Promise<Wire>,
  runs: number,
  baseSeed: number,
): Promise<FuzzReport> {
  const wire = await makeWire(endpoint.options ?? {})
  const seed = seedFor(baseSeed, endpoint.name)
  const statuses: Record<number, number> = {}
  const started = performance.now()
  let failure: string | undefined
  try {
    await wire.sandbox.ready
    const context = endpoint.setup ? await endpoint.setup(wire) : EMPTY_CONTEXT
    const property = fc.asyncProperty(
      endpoint.cases(context).map((c) => overTransport(c, wire.name)),
      async (fuzzCase) => {
        const response = await wire.send(fuzzCase.request)
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
        if (endpoint.after) await endpoint.after(wire)
        const problems = judge(fuzzCase, response, endpoint.statuses)
        if (problems.length > 0) {
          throw new Error(
            `[${fuzzCase.label}] ${problems.join('; ')}\n  request: ${describeRequest(fuzzCase.request)}\n  answer: ${response.status} ${response.text.slice(0, 400)}`,
          )
        }
      },
    )
    const result = await fc.check(property, { numRuns: runs, seed, endOnFailure: false, maxSkipsPerRun: 1000 })
    if (result.failed) {
      const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)
      failure = `${endpoint.name} over ${wire.name} failed after ${result.numRuns} runs (seed ${seed}, path ${result.counterexamplePath}):\n${cause}`
    }
    const health = await wire.send({
      method: 'GET',
      path: '/__sandbox/health',
      headers: endpoint.options?.adminToken ? [['authorization', `Bearer ${endpoint.options.adminToken}`]] : [],
    })
    if (health.status !== 200) failure = `${failure ?? ''}\nhealth check after fuzzing answered ${health.status}`
  } finally {
    await wire.dispose()
  }
  const total = Object.values(statuses).reduce((a, b) => a + b, 0)
  return {
    endpoint: endpoint.name,
    wire: wire.name,
    runs: total,
    statuses,
    ms: Math.round(performance.now() - started),
    seed,
    failure,
  }
}
