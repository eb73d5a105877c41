import { createServer, type AddressInfo } from 'node:net'
import { http, HttpResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chunks, exchange, trickle } from '../../test/abuse/raw-socket.js'
import { createSandbox, type Sandbox } from '../index.js'
import { startServer, type RequestLog, type RunningServer } from './http-server.js'
import { startThreadedServer, type RunningTransport } from './threaded-server.js'

const MiB = 1024 * 1024
const KEY = 'test_pro'
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const TIMEOUTS = { headersMs: 400, requestMs: 800, keepAliveMs: 300, checkIntervalMs: 100 }

/** Status, the headers that matter and the body with its ids and times blanked. */
async function shapeOf(response: Response) {
  const text = await response.text()
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-ratelimit-reset' && name !== 'x-ratelimit-remaining') headers[name] = value
  })
  return {
    status: response.status,
    headers,
    body: text.replace(/(msg|sub)_[A-Za-z0-9]{24}/g, '$1_ID').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME'),
  }
}

describe('the threaded transport (HTTP on a worker thread, the sandbox on the main thread)', () => {
  let sandbox: Sandbox
  let threaded: RunningTransport
  let single: RunningServer
  let singleSandbox: Sandbox
  const seen: RequestLog[] = []

  beforeAll(async () => {
    const options = { baseUrl: 'http://127.0.0.1:4010/v1', subscribers: 3 }
    sandbox = createSandbox(options)
    singleSandbox = createSandbox(options)
    // A streamed answer (no JSON text): chunks written as they come, through both transports.
    for (const s of [sandbox, singleSandbox]) {
      s.handlers.unshift(
        http.get('http://127.0.0.1:4010/__test/stream', () => {
          const encoder = new TextEncoder()
          let n = 0
          return new HttpResponse(
            new ReadableStream({
              async pull(controller) {
                await new Promise((r) => setTimeout(r, 20))
                if (n === 3) return controller.close()
                controller.enqueue(encoder.encode(`chunk ${n++}\n`))
              },
            }),
            { headers: { 'content-type': 'text/plain' } },
          )
        }),
      )
    }
    threaded = await startThreadedServer(sandbox, {
      port: 0,
      threads: 2,
      timeouts: TIMEOUTS,
      onRequest: (entry) => seen.push(entry),
    })
    single = await startServer(singleSandbox, { port: 0, timeouts: TIMEOUTS })
  })
  afterAll(async () => {
    await threaded?.close()
    await single?.close()
    sandbox?.dispose()
    singleSandbox?.dispose()
  })

  it('answers what the single-thread server answers, request for request', async () => {
    const requests: Array<[string, string, RequestInit]> = [
      [
        'send',
        '/v1/email/send',
        {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<p>Hi</p>' }),
        },
      ],
      ['invalid JSON', '/v1/email/send', { method: 'POST', headers: auth, body: '{"to":' }],
      ['validation', '/v1/email/send', { method: 'POST', headers: auth, body: JSON.stringify({ to: 'not-an-email' }) }],
      ['no key', '/v1/email/send', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['list', '/v1/subscribers?limit=2', { headers: auth }],
      [
        'create',
        '/v1/subscribers',
        { method: 'POST', headers: auth, body: JSON.stringify({ email: 'bo@example.com' }) },
      ],
      ['missing', '/v1/subscribers/sub_nope', { headers: auth }],
      ['unknown route', '/v2/nothing', { headers: auth }],
      [
        'preflight',
        '/v1/email/send',
        { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } },
      ],
      ['forced fault', '/v1/subscribers', { headers: { ...auth, prefer: 'code=503' } }],
      ['health', '/__sandbox/health', {}],
      ['stream', '/__test/stream', {}],
    ]
    for (const [name, path, init] of requests) {
      const [a, b] = await Promise.all([fetch(`${threaded.url}${path}`, init), fetch(`${single.url}${path}`, init)])
      expect(await shapeOf(a), name).toEqual(await shapeOf(b))
    }
    // The main thread's sandbox holds the state: the send went to its outbox.
    expect(sandbox.outbox.list().length).toBe(1)
    expect(seen.some((e) => e.method === 'POST' && e.path === '/v1/email/send' && e.status === 200)).toBe(true)
  })

  it.each(['threaded', 'single-thread'])(
    'stops reading a body past the cap, answers payload_too_large and closes the connection (%s)',
    async (which) => {
      const port = which === 'threaded' ? threaded.port : single.port
      const head = `POST /v1/email/send HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
      // 64 MiB offered; the server reads 1 MiB + 1 byte, answers and closes. What the client got to
      // write before the answer is that plus the kernel's socket buffers (a few MiB), never the whole.
      const body = chunks(1024, 64 * 1024).flatMap((c) => [`${c.length.toString(16)}\r\n`, c, '\r\n'])
      const result = await exchange(port, [head, ...body], { deadlineMs: 10_000 })
      expect(
        result.status,
        `${result.raw.slice(0, 200)} closed ${result.closed} after ${result.ms} ms, ${result.written} bytes written`,
      ).toBe(400)
      expect(JSON.parse(result.body).error.code).toBe('payload_too_large')
      expect(result.closed).toBe(true)
      expect(result.writtenAtResponse ?? Infinity, 'bytes sent before the answer').toBeLessThan(16 * MiB)
    },
  )

  it('answers 400 invalid_request below HTTP: a malformed request, and headers that never finish', async () => {
    const malformed = await exchange(threaded.port, ['GARBAGE\r\n\r\n'], { deadlineMs: 2_000 })
    expect(malformed.status).toBe(400)
    expect(JSON.parse(malformed.body).error.code).toBe('invalid_request')
    const slow = await exchange(threaded.port, trickle('GET /v1/subscribers HTTP/1.1\r\nHost: 127.0.0.1\r\n', 100), {
      deadlineMs: 5_000,
    })
    expect(slow.status).toBe(400)
    expect(slow.body).toContain('took too long')
    expect(slow.closed).toBe(true)
  })

  it('closes an idle keep-alive connection after its timeout', async () => {
    const result = await exchange(threaded.port, ['GET /__sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'], {
      deadlineMs: 3_000,
    })
    expect(result.status).toBe(200)
    expect(result.closed).toBe(true)
    expect(result.ms).toBeLessThan(2_000)
  })
})

describe('shutting the threaded transport down', () => {
  it('answers the request in flight, closes keep-alive connections, then stops', async () => {
    const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1' })
    // A request the main thread holds for 300 ms once it has it: the close starts while it is in
    // flight however long it took to get there (a fixed wait lost the race on a busy machine).
    let arrived = () => {}
    const arrival = new Promise<void>((resolve) => (arrived = resolve))
    sandbox.handlers.unshift(
      http.get('http://127.0.0.1:4010/__test/held', async () => {
        arrived()
        await new Promise((r) => setTimeout(r, 300))
        return HttpResponse.json({ held: true })
      }),
    )
    const running = await startThreadedServer(sandbox, { port: 0, threads: 2 })
    const inFlight = fetch(`${running.url}/__test/held`)
    await arrival
    const closing = running.close()
    const answer = await inFlight
    expect(answer.status).toBe(200)
    const closedAt = performance.now()
    await closing
    expect(performance.now() - closedAt, 'closed soon after the last answer, not keepAliveTimeout later').toBeLessThan(
      1_000,
    )
    await expect(fetch(`${running.url}/__sandbox/health`)).rejects.toThrow()
    sandbox.dispose()
  })

  it('rejects with the OS error when the port is taken', async () => {
    const sandbox = createSandbox()
    // Any listener takes the port (a threaded server holding it cost a worker start more).
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const port = (holder.address() as AddressInfo).port
    await expect(startThreadedServer(sandbox, { port, threads: 2 })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    })
    await new Promise((resolve) => holder.close(resolve))
    sandbox.dispose()
  })

  it('is the single-thread server with threads: 1', async () => {
    const sandbox = createSandbox()
    const running = await startThreadedServer(sandbox, { port: 0, threads: 1 })
    expect(running.threads).toBe(1)
    expect(running.server).toBeDefined()
    expect((await fetch(`${running.url}/__sandbox/health`)).status).toBe(200)
    await running.close()
    sandbox.dispose()
  })
})
