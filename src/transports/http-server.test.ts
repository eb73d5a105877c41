import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { bufferedBodyOf, type Answer, type WireRequest } from '../http/body.js'
import { createSandbox } from '../index.js'
import { startServer, type RunningServer } from './http-server.js'

const OK: Answer = { status: 200, headers: { 'Content-Type': 'application/json' }, text: '{}' }

/** Sends a GET and destroys the connection 50 ms later, before any answer. */
function hangUp(url: string): void {
  const req = httpRequest(url)
  req.on('error', () => {})
  req.end()
  setTimeout(() => req.destroy(), 50)
}

/** Writes `parts` to a raw connection (each after `gapMs`) and resolves with all it got once `expected` 200 answers are in. */
function rawExchange(port: number, parts: Array<string | Buffer>, expected: number, gapMs = 30): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let got = ''
    socket.setEncoding('utf8')
    socket.setNoDelay(true)
    socket.on('data', (chunk: string) => {
      got += chunk
      if (got.split('HTTP/1.1 200').length - 1 === expected) socket.end()
    })
    socket.on('close', () => resolve(got))
    socket.on('error', reject)
    void (async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, gapMs))
        socket.write(part)
      }
    })()
  })
}

describe('the request the node:http transport hands to its dispatcher', () => {
  let running: RunningServer | undefined
  afterEach(async () => {
    await running?.close()
    running = undefined
  })

  const serve = async (dispatch: (request: WireRequest) => Promise<Answer>) => {
    running = await startServer(createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', subscribers: 0 }), {
      port: 0,
      dispatch,
    })
    return running.url
  }

  it('is the request as a Fetch Request would see it, with its signal on the prototype (no accessor of its own)', async () => {
    let seen: WireRequest | undefined
    const url = await serve(async (request) => {
      seen = request
      return OK
    })
    const response = await fetch(`${url}/v1/some/path?a=1&b=%20`, { headers: { 'X-Thing': 'one' } })
    expect(response.status).toBe(200)
    expect(seen).toBeDefined()
    expect(seen!.method).toBe('GET')
    // On the sandbox's origin (its base URL), whatever port the server listens on.
    expect(seen!.url).toBe('http://127.0.0.1:4010/v1/some/path?a=1&b=%20')
    expect(seen!.headers.get('x-thing')).toBe('one')
    expect(seen!.signal.aborted).toBe(false)
    // A getter per request (an object literal's `get signal()`) makes V8 keep an AccessorPair in
    // the old generation for each request, which held the listener's whole scope through young
    // collections: every request's objects were promoted (docs/performance.md).
    const accessors = Object.entries(Object.getOwnPropertyDescriptors(seen)).filter(
      ([, d]) => d.get !== undefined || d.set !== undefined,
    )
    expect(accessors.map(([name]) => name)).toEqual([])
  })

  it('parses each request target on the sandbox origin, once per distinct path, bounded', async () => {
    const seen: Array<{ url: URL; href: string }> = []
    running = await startServer(createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', subscribers: 0 }), {
      port: 0,
      dispatch: async (request, url) => {
        seen.push({ url, href: request.url })
        return OK
      },
    })
    const base = running.url
    for (const path of ['/v1/a?x=1', '/v1/a?x=1', '/v1/%2e%2e/v1/b', '/v1/a?x=2'])
      expect((await fetch(base + path)).status).toBe(200)
    expect(seen.map(({ url }) => url.pathname + url.search)).toEqual(['/v1/a?x=1', '/v1/a?x=1', '/v1/b', '/v1/a?x=2'])
    expect(seen.map(({ href }) => href)).toEqual([
      'http://127.0.0.1:4010/v1/a?x=1',
      'http://127.0.0.1:4010/v1/a?x=1',
      'http://127.0.0.1:4010/v1/b',
      'http://127.0.0.1:4010/v1/a?x=2',
    ])
    // The same path: the same parsed URL (shared, so never changed by what is handed it).
    expect(seen[1].url).toBe(seen[0].url)
    expect(seen[3].url).not.toBe(seen[0].url)
    // 600 distinct paths (past the cache's bound), then the first again: still right.
    for (let i = 0; i < 600; i++) await fetch(`${base}/v1/p${i}`)
    expect((await fetch(`${base}/v1/a?x=1`)).status).toBe(200)
    expect(seen.at(-1)!.url.href).toBe('http://127.0.0.1:4010/v1/a?x=1')
    expect(seen).toHaveLength(605)
  })

  it('aborts the signal when the client goes away before the answer', async () => {
    let aborted: (reason: unknown) => void = () => {}
    const reason = new Promise((resolve) => (aborted = resolve))
    const url = await serve((request) => {
      request.signal.addEventListener('abort', () => aborted(request.signal.reason))
      return reason.then(() => OK)
    })
    hangUp(`${url}/v1/wait`)
    expect(await reason).toMatchObject({ name: 'AbortError' })
  })

  it('gives an already aborted signal when it is first read after the client went away', async () => {
    let read: (aborted: boolean) => void = () => {}
    const result = new Promise<boolean>((resolve) => (read = resolve))
    const url = await serve(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      read(request.signal.aborted)
      return OK
    })
    hangUp(`${url}/v1/wait`)
    expect(await result).toBe(true)
  })

  it('gives each of 200 requests at once, on 200 connections, its own answer (answers of a turn are written together)', async () => {
    // Many answers wait in one turn, more than ENDS_PER_FLUSH when enough requests arrive together
    // (the queue is then written when it fills; answer-write.test.ts pins that). Each answer must
    // still reach its own socket.
    const url = await serve(async (request) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify({ path: new URL(request.url).pathname }),
    }))
    const paths = Array.from({ length: 200 }, (_, i) => `/v1/echo/${i}`)
    const bodies = await Promise.all(
      paths.map((path) => fetch(url + path, { headers: { connection: 'keep-alive' } }).then((r) => r.json())),
    )
    expect(bodies).toEqual(paths.map((path) => ({ path })))
  })

  it('answers 30 requests pipelined on one connection without stacking a listener per request', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
    process.on('warning', onWarning)
    let inFlight = 0
    let most = 0
    const url = await serve(async () => {
      most = Math.max(most, ++inFlight)
      await new Promise((resolve) => setTimeout(resolve, 20))
      inFlight--
      return OK
    })
    const { port } = new URL(url)
    const text = await rawExchange(
      Number(port),
      [`GET /v1/x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`.repeat(30)],
      30,
    )
    await new Promise((resolve) => setImmediate(resolve))
    process.off('warning', onWarning)
    expect(text.split('HTTP/1.1 200').length - 1).toBe(30)
    // They were all in flight at once, each watched for its client going away.
    expect(most).toBeGreaterThan(10)
    expect(warnings).toEqual([])
  })

  describe('gives the dispatcher the whole body however it arrives', () => {
    /** The bodies the dispatcher saw for `parts` written to a raw connection (see rawExchange). */
    const exchange = async (parts: Array<string | Buffer>, expected: number, gapMs = 30) => {
      const seen: string[] = []
      const url = await serve(async (request) => {
        seen.push(Buffer.from(bufferedBodyOf(request) ?? new Uint8Array(0)).toString('utf8'))
        return OK
      })
      const text = await rawExchange(Number(new URL(url).port), parts, expected, gapMs)
      expect(text.split('HTTP/1.1 200').length - 1).toBe(expected)
      return seen
    }
    const head = (length: number | 'chunked') =>
      `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`
    const body = JSON.stringify({ to: 'ana@example.com', subject: 'Grüße ✓', html: '<p>Hi Ana</p>' })
    const length = Buffer.byteLength(body)

    it('with its headers, in one write', async () => {
      expect(await exchange([head(length) + body], 1)).toEqual([body])
    })

    it('after its headers, or split across writes', async () => {
      expect(await exchange([head(length), body], 1)).toEqual([body])
      const bytes = Buffer.from(body)
      // Split inside a multi-byte character.
      const cut = bytes.indexOf(Buffer.from('ü')) + 1
      expect(
        await exchange([Buffer.concat([Buffer.from(head(length)), bytes.subarray(0, cut)]), bytes.subarray(cut)], 1),
      ).toEqual([body])
    })

    it('chunked, whole or in pieces', async () => {
      const chunked = `${length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
      expect(await exchange([head('chunked') + chunked], 1)).toEqual([body])
      expect(await exchange([head('chunked') + chunked.slice(0, 10), chunked.slice(10)], 1)).toEqual([body])
    })

    it('pipelined behind another request, each body to its own request', async () => {
      const other = JSON.stringify({ n: 2 })
      const third = ''
      const parts = [head(length) + body + head(Buffer.byteLength(other)) + other + head(0) + third]
      expect(await exchange(parts, 3)).toEqual([body, other, third])
    })
  })
})

describe('close() with a connection that has carried no request yet', () => {
  it('answers the request that arrives on it just after close() began, with Connection: close', async () => {
    const running = await startServer(createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', subscribers: 0 }), {
      port: 0,
      dispatch: async () => OK,
    })
    // Connected before the close; its request (sent before a signal, not yet read) arrives after.
    const socket = connect(running.port, '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    await new Promise((resolve) => setTimeout(resolve, 20))
    let got = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (got += chunk))
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    const closed = running.close()
    socket.write('GET /v1/subscribers HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await ended
    await closed
    // Ended at once, the connection dropped the request unanswered (the client saw it close).
    expect(got).toMatch(/^HTTP\/1\.1 200 /)
    expect(got).toMatch(/\r\nconnection: close\r\n/i)
  })
})
