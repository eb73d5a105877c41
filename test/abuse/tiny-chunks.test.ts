/**
 * Issue 11: a chunked body sent as 1-byte chunks cost ~420 MB of RSS per 6.3 MB request (each
 * chunk kept as its own Buffer), and 16 in parallel reached 6.1 GB — no key needed. Here 16
 * parallel 6 MB bodies of 1-byte chunks, with a key and without, against a server in a child
 * process (so the test runner's own heap does not blur the figure): every one answered with the
 * error object, and the server's RSS afterwards within 100 MB of idle.
 */
import { fork, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const MiB = 1024 * 1024
const BODY_BYTES = 6_000_000
/** `1\r\na\r\n`: one body byte per chunk, 6 bytes on the wire. */
const PIECE = '1\r\na\r\n'
const WIRE = Buffer.from(PIECE.repeat(16_384))

let child: ChildProcess
let port = 0

function next(): Promise<Record<string, number>> {
  return new Promise((resolve) => child.once('message', (message) => resolve(message as Record<string, number>)))
}

async function serverRssMb(): Promise<number> {
  const answer = next()
  child.send('rss')
  return Math.round((await answer).rss / MiB)
}

/** Sends one 6 MB body in 1-byte chunks; resolves with the first status line and body once the server closes. */
function tinyChunkUpload(authorization: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (data) => (received += data.toString('latin1')))
    socket.on('error', () => undefined) // EPIPE / ECONNRESET once the server hangs up: expected
    socket.on('close', () => {
      const split = received.indexOf('\r\n\r\n')
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0),
        body: split >= 0 ? received.slice(split + 4) : '',
      })
    })
    socket.write(
      `POST /v1/email/send HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    )
    let sent = 0
    const pump = () => {
      while (sent < BODY_BYTES && !socket.destroyed) {
        sent += WIRE.length / PIECE.length
        if (!socket.write(WIRE)) return void socket.once('drain', pump)
      }
      if (!socket.destroyed) socket.end('0\r\n\r\n')
    }
    pump()
  })
}

beforeAll(async () => {
  child = fork(fileURLToPath(new URL('./server-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  port = (await next()).port
})

afterAll(() => {
  child?.kill()
})

describe('bodies sent as 1-byte chunks (child-process server)', () => {
  it('16 parallel 6 MB uploads with a key and 16 without: all answered, RSS back within 100 MB of idle', async () => {
    const idle = await serverRssMb()
    const answers = await Promise.all([
      ...Array.from({ length: 16 }, () => tinyChunkUpload('Bearer test_enterprise')),
      ...Array.from({ length: 16 }, () => tinyChunkUpload(undefined)),
    ])
    const after = await serverRssMb()
    console.log(`tiny-chunk uploads: server RSS idle ${idle} MB, after 32 × 6 MB in 1-byte chunks ${after} MB`)
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, `upload ${i}`).toBe(i < 16 ? 400 : 401)
      expect(JSON.parse(answer.body).error.code).toBe(i < 16 ? 'invalid_request' : 'unauthorized')
    }
    expect(after - idle).toBeLessThan(100)
  }, 60_000)
})
