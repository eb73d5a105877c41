/**
 * Regressions of the black-box attack of issue 11 on the standalone server, over HTTP on an
 * ephemeral port: a page of another origin reading or wiping the sandbox, DNS rebinding (a
 * foreign `Host`), form-style CSRF, and requests Node itself used to answer with empty bodies or
 * not at all (TRACE, CONNECT, an unknown `Expect`, no `Host`, a handler crash).
 */
import http from 'node:http'
import { http as mswHttp, HttpResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { startServer, type RunningServer } from '../../src/transports/http-server.js'
import { errorShapeProblem } from '../fuzz/fuzz-kit.js'
import { bytesReadAtAnswer, exchange } from './raw-socket.js'

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** One request with any headers (fetch refuses to set Host or Origin). */
function call(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

function errorOf(answer: Answer): { code: string; message: string } {
  const parsed = JSON.parse(answer.body)
  expect(errorShapeProblem(parsed)).toBeUndefined()
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  return parsed.error
}

const EVIL = 'http://evil.test'
const JSON_HEADERS = { 'content-type': 'application/json' }

describe('the default policy: loopback origins and hosts only', () => {
  let sandbox: Sandbox
  let running: RunningServer
  let readAtAnswer: number[] = []

  beforeAll(async () => {
    sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', deliveryMs: 0 })
    running = await startServer(sandbox, { port: 0 })
    readAtAnswer = bytesReadAtAnswer(running.server)
    const sent = await fetch(`${running.url}/v1/email/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer test_pro', ...JSON_HEADERS },
      body: JSON.stringify({
        to: 'ana@example.com',
        subject: 'Reset your password',
        html: '<a href="https://app.test/reset?token=s3cret">reset</a>',
      }),
    })
    expect(sent.status).toBe(200)
  })
  afterAll(async () => {
    await running.close()
    sandbox.dispose()
  })

  it('grants CORS to a loopback origin (echoed, Vary: Origin), and nothing to another site', async () => {
    const local = await call(running.port, 'GET', '/__sandbox/messages', { origin: 'http://localhost:5173' })
    expect(local.status).toBe(200)
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(local.headers['access-control-expose-headers']).toMatch(/X-RateLimit-Limit/)
    expect(local.headers.vary).toMatch(/Origin/)
    const foreign = await call(running.port, 'GET', '/__sandbox/messages', { origin: EVIL })
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()
    expect(foreign.headers.vary).toMatch(/Origin/)
    const none = await call(running.port, 'GET', '/__sandbox/messages')
    expect(none.status).toBe(200)
    expect(none.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('answers a preflight from another site without any Access-Control-Allow-* header', async () => {
    const preflight = {
      'access-control-request-method': 'DELETE',
      'access-control-request-headers': 'x-sendbox-admin-token',
    }
    const foreign = await call(running.port, 'OPTIONS', '/__sandbox/messages', { origin: EVIL, ...preflight })
    expect(foreign.status).toBe(204)
    expect(Object.keys(foreign.headers).filter((name) => name.startsWith('access-control-allow'))).toEqual([])
    const local = await call(running.port, 'OPTIONS', '/__sandbox/messages', {
      origin: 'http://127.0.0.1:3000',
      ...preflight,
    })
    expect(local.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000')
    expect(local.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Prefer, X-Sendbox-Admin-Token',
    )
  })

  it('refuses state changes from another origin (403 forbidden_origin): reset, delete, faults; the outbox stays', async () => {
    const attempts: Array<[string, string, Record<string, string>, string?]> = [
      ['POST', '/__sandbox/reset', {}],
      ['POST', '/__sandbox/reset?scope=messages', JSON_HEADERS, '{}'],
      ['DELETE', '/__sandbox/messages', {}],
      ['POST', '/__sandbox/faults', JSON_HEADERS, JSON.stringify({ status: 503 })],
      ['POST', '/v1/%2e%2e/__sandbox/reset', {}],
      ['POST', '/__sandbox/reset', { origin: 'null' }],
    ]
    for (const [method, path, headers, body] of attempts) {
      const answer = await call(running.port, method, path, { origin: EVIL, ...headers }, body)
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect(errorOf(answer).code).toBe('forbidden_origin')
    }
    expect(sandbox.outbox.size).toBe(1)
    expect(sandbox.faults.size).toBe(0)
  })

  it('refuses form-style bodies on /__sandbox state changes (400 invalid_content_type), bodiless ones too', async () => {
    const forms: Array<[Record<string, string>, string | undefined]> = [
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 'scope=messages'],
      [{ 'content-type': 'text/plain' }, '{"status":503}'],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, undefined],
      [{ 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' }, undefined],
      [{}, 'scope=messages'], // a body without any Content-Type
    ]
    for (const [headers, body] of forms) {
      for (const path of ['/__sandbox/reset', '/__sandbox/faults']) {
        const answer = await call(running.port, 'POST', path, headers, body)
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(400)
        expect(errorOf(answer).code).toBe('invalid_content_type')
      }
    }
    expect(sandbox.outbox.size).toBe(1)
    expect(sandbox.faults.size).toBe(0)
  })

  it('lets curl and test code (no Origin) and loopback pages change state', async () => {
    const fault = await call(
      running.port,
      'POST',
      '/__sandbox/faults',
      { origin: 'http://localhost:5173', ...JSON_HEADERS },
      JSON.stringify({ status: 503, path: '/v1/nowhere' }),
    )
    expect(fault.status).toBe(200)
    const cleared = await call(running.port, 'DELETE', '/__sandbox/faults')
    expect(cleared.status).toBe(200)
    expect(sandbox.faults.size).toBe(0)
    const reset = await call(running.port, 'POST', '/__sandbox/reset?scope=journal')
    expect(reset.status).toBe(200)
  })

  it('refuses a Host that does not name this server (DNS rebinding): 403 forbidden_host', async () => {
    for (const host of ['evil.test', `evil.test:${4010}`, 'localhost.evil.test', 'rebind.127.0.0.1.nip.io']) {
      for (const path of ['/__sandbox/messages', '/v1/subscribers']) {
        const answer = await call(running.port, 'GET', path, { host, authorization: 'Bearer test_pro' })
        expect(answer.status, `${host} ${path}`).toBe(403)
        const error = errorOf(answer)
        expect(error.code).toBe('forbidden_host')
        expect(error.message).toMatch(/--allowed-host/)
        expect(answer.body).not.toContain('s3cret')
      }
    }
    for (const host of [
      'localhost',
      `localhost:${running.port}`,
      `[::1]:${running.port}`,
      'sendbox.localhost',
      '127.0.0.1',
    ]) {
      expect((await call(running.port, 'GET', '/__sandbox/health', { host })).status, host).toBe(200)
    }
  })

  it('answers TRACE, TRACK and CONNECT with 400 invalid_request instead of dropping the connection', async () => {
    for (const method of ['TRACE', 'TRACK']) {
      for (const path of ['/v1/subscribers', '/__sandbox/messages', '/']) {
        const answer = await call(running.port, method, path)
        expect(answer.status, `${method} ${path}`).toBe(400)
        expect(errorOf(answer).code).toBe('invalid_request')
      }
    }
    const connect = await exchange(running.port, [`CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`], {
      deadlineMs: 3_000,
    })
    expect(connect.status).toBe(400)
    expect(JSON.parse(connect.body).error.code).toBe('invalid_request')
  })

  it('answers an unknown Expect with 400 invalid_request (not an empty 417); 100-continue still works', async () => {
    const odd = await exchange(
      running.port,
      [
        `POST /v1/sms/send HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test_pro\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 200-ok\r\nOrigin: http://localhost:3000\r\n\r\n`,
      ],
      { deadlineMs: 3_000 },
    )
    expect(odd.status).toBe(400)
    expect(odd.raw).toMatch(/Access-Control-Allow-Origin: http:\/\/localhost:3000/i)
    expect(JSON.parse(odd.body).error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/Expect/),
    })
    const body = JSON.stringify({ to: '+14155550123', message: 'hi' })
    const normal = await exchange(
      running.port,
      [
        `POST /v1/sms/send HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test_pro\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
        { pauseMs: 100 },
        body,
      ],
      { deadlineMs: 3_000 },
    )
    expect(normal.raw).toMatch(/^HTTP\/1\.1 100 Continue/)
    expect(normal.raw).toMatch(/HTTP\/1\.1 200 OK/)
  })

  it('answers an HTTP/1.1 request without Host with 400 invalid_request and a JSON body; HTTP/1.0 needs none', async () => {
    const missing = await exchange(running.port, ['GET /__sandbox/health HTTP/1.1\r\n\r\n'], { deadlineMs: 3_000 })
    expect(missing.status).toBe(400)
    expect(JSON.parse(missing.body).error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/Host/),
    })
    const old = await exchange(running.port, ['GET /__sandbox/health HTTP/1.0\r\n\r\n'], { deadlineMs: 3_000 })
    expect(old.status).toBe(200)
  })

  it('answers 401 to a keyless 6 MB upload from its headers, before reading the body, and closes the connection', async () => {
    const total = 6 * 1024 * 1024
    const result = await exchange(
      running.port,
      [
        `POST /v1/email/send HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
        ...Array.from({ length: total / 65_536 }, () => Buffer.alloc(65_536, 0x61)),
      ],
      { deadlineMs: 5_000 },
    )
    expect(result.status).toBe(401)
    expect(JSON.parse(result.body).error.code).toBe('unauthorized')
    expect(result.closed).toBe(true)
    expect(readAtAnswer.at(-1), 'bytes the server read before answering').toBeLessThan(1024 * 1024)
  })
})

describe('faults bounded (issue 11: 200,000 faults slowed every request 30×; 1 MiB paths broke GET /__sandbox/faults)', () => {
  it('arms at most 1,000, refuses a 1 MiB path, and still lists them', async () => {
    const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1' })
    const running = await startServer(sandbox, { port: 0 })
    try {
      const arm = (spec: unknown) =>
        fetch(`${running.url}/__sandbox/faults`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(spec) })
      const huge = await arm({ status: 503, path: `/${'a'.repeat(1024 * 1024 - 100)}` })
      expect(huge.status).toBe(400)
      expect((await huge.json()).error).toMatchObject({
        code: 'invalid_parameter',
        param: 'path',
        message: expect.stringMatching(/at most 1024 characters/),
      })
      for (let i = 0; i < 1_000; i++) sandbox.faults.add({ status: 503, path: `/v1/${String(i).padStart(1019, '0')}` })
      const over = await arm({ status: 503 })
      expect(over.status).toBe(400)
      expect((await over.json()).error).toMatchObject({
        code: 'invalid_parameter',
        message: expect.stringMatching(/1000 faults are armed already/),
      })
      const listed = await fetch(`${running.url}/__sandbox/faults`)
      expect(listed.status).toBe(200)
      expect((await listed.json()).data).toHaveLength(1_000)
      const send = await fetch(`${running.url}/v1/subscribers`, { headers: { authorization: 'Bearer test_pro' } })
      expect(send.status).toBe(200)
    } finally {
      await running.close()
      sandbox.dispose()
    }
  })
})

describe('an admin token is checked from the headers too', () => {
  it('a 6 MB upload to /__sandbox without the token is answered 401 before its body is read, and the connection closed', async () => {
    const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', adminToken: 'adm_secret' })
    const running = await startServer(sandbox, { port: 0 })
    const readAtAnswer = bytesReadAtAnswer(running.server)
    try {
      const total = 6 * 1024 * 1024
      const result = await exchange(
        running.port,
        [
          `POST /__sandbox/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Sendbox-Admin-Token: adm_wrong\r\nContent-Length: ${total}\r\n\r\n`,
          ...Array.from({ length: total / 65_536 }, () => Buffer.alloc(65_536, 0x61)),
        ],
        { deadlineMs: 5_000 },
      )
      expect(result.status).toBe(401)
      expect(result.closed).toBe(true)
      expect(readAtAnswer[0]).toBeLessThan(1024 * 1024)
      const ok = await call(
        running.port,
        'POST',
        '/__sandbox/faults',
        { 'x-sendbox-admin-token': 'adm_secret', ...JSON_HEADERS },
        JSON.stringify({ status: 503, path: '/v1/x' }),
      )
      expect(ok.status).toBe(200)
    } finally {
      await running.close()
      sandbox.dispose()
    }
  })
})

describe('flags: --cors-origin and --allowed-host', () => {
  it('--cors-origin grants that origin (state changes included); * grants every origin', async () => {
    const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1' })
    const listed = await startServer(sandbox, {
      port: 0,
      corsOrigins: ['https://app.test'],
      allowedHosts: ['my-box.lan', '.dev.test'],
    })
    const any = await startServer(sandbox, { port: 0, corsOrigins: ['*'] })
    try {
      const ok = await call(listed.port, 'GET', '/__sandbox/health', { origin: 'https://app.test' })
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.test')
      expect((await call(listed.port, 'POST', '/__sandbox/reset', { origin: 'https://app.test' })).status).toBe(200)
      expect((await call(listed.port, 'POST', '/__sandbox/reset', { origin: 'https://other.test' })).status).toBe(403)
      expect((await call(listed.port, 'GET', '/__sandbox/health', { host: 'my-box.lan:4010' })).status).toBe(200)
      expect((await call(listed.port, 'GET', '/__sandbox/health', { host: 'api.dev.test' })).status).toBe(200)
      expect((await call(listed.port, 'GET', '/__sandbox/health', { host: 'other.lan' })).status).toBe(403)
      const star = await call(any.port, 'GET', '/__sandbox/health', { origin: EVIL })
      expect(star.headers['access-control-allow-origin']).toBe('*')
      expect((await call(any.port, 'POST', '/__sandbox/reset', { origin: EVIL })).status).toBe(200)
    } finally {
      await listed.close()
      await any.close()
      sandbox.dispose()
    }
  })
})

describe('every request is answered: streams, disconnects, crashes', () => {
  let sandbox: Sandbox
  let running: RunningServer
  let release: () => void = () => undefined
  let waiterAborted: Promise<string>

  beforeAll(async () => {
    sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1' })
    const origin = 'http://127.0.0.1:4010'
    let onAbort: (reason: string) => void = () => undefined
    waiterAborted = new Promise((resolve) => (onAbort = resolve))
    const gate = new Promise<void>((resolve) => (release = resolve))
    // Tiny handlers ahead of the sandbox's own: a stream whose end waits for the test, a long-poll, a crash.
    sandbox.handlers.unshift(
      mswHttp.get(
        `${origin}/__sandbox/test/stream`,
        () =>
          new HttpResponse(
            new ReadableStream<Uint8Array>({
              async start(controller) {
                controller.enqueue(new TextEncoder().encode('event: first\n\n'))
                await gate
                controller.enqueue(new TextEncoder().encode('event: second\n\n'))
                controller.close()
              },
            }),
            { headers: { 'content-type': 'text/event-stream' } },
          ),
      ),
      mswHttp.get(
        `${origin}/__sandbox/test/wait`,
        ({ request }) =>
          new Promise<Response>((resolve) => {
            request.signal.addEventListener('abort', () => {
              onAbort((request.signal.reason as Error).name)
              resolve(HttpResponse.json({ dropped: true }))
            })
          }),
      ),
      mswHttp.post(`${origin}/__sandbox/test/crash`, () => {
        throw new Error('boom after the body was read')
      }),
    )
    running = await startServer(sandbox, { port: 0 })
  })
  afterAll(async () => {
    release()
    await running.close()
    sandbox.dispose()
  })

  it('streams a body the handlers give as a stream: the first event arrives before the stream ends', async () => {
    const response = await fetch(`${running.url}/__sandbox/test/stream`)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('content-length')).toBeNull()
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe('event: first\n\n')
    release()
    let rest = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value)
    expect(rest).toBe('event: second\n\n')
  })

  it('aborts request.signal when the client goes away before the answer (a long-poll drops its waiter)', async () => {
    const result = exchange(running.port, ['GET /__sandbox/test/wait HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'], {
      deadlineMs: 150,
    })
    expect((await result).status).toBeUndefined()
    const reason = await Promise.race([
      waiterAborted,
      new Promise<string>((resolve) => setTimeout(() => resolve('not aborted'), 2_000)),
    ])
    expect(reason).toBe('AbortError')
  })

  it('answers a client that half-closes after its request, even when the answer comes later (Prefer: delay)', async () => {
    const result = await exchange(
      running.port,
      [
        'GET /v1/subscribers?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test_pro\r\nPrefer: code=404, delay=50\r\n\r\n',
      ],
      { end: true, deadlineMs: 3_000 },
    )
    expect(result.status).toBe(404)
    expect(JSON.parse(result.body).error.code).toBe('not_found')
    expect(result.closed).toBe(true)
  })

  it('answers a crash after the body was read with 500 internal_error and a line on stderr', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const answer = await call(running.port, 'POST', '/__sandbox/test/crash', JSON_HEADERS, '{"a":1}')
      expect(answer.status).toBe(500)
      expect(errorOf(answer).code).toBe('internal_error')
      expect(answer.body).not.toMatch(/boom|at /)
      expect(errors).toHaveBeenCalledWith(
        expect.stringMatching(/unexpected server error on POST \/__sandbox\/test\/crash/),
        expect.any(Error),
      )
    } finally {
      errors.mockRestore()
    }
  })
})
