import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Answer } from '../http/body.js'
import { nextTurn } from '../domain/event-loop.js'
import { closeAfterAnswer, ENDS_PER_FLUSH, writeAnswer } from './answer-write.js'

/** What a response was told, in one log shared by all of them (the order across sockets matters). */
type Call = [id: number, what: 'head' | 'end' | 'destroy', detail?: unknown]

function fakeExchange(log: Call[], id: number, options: { endThrows?: boolean } = {}) {
  const req = { url: '/v1/thing', method: 'GET', headers: {} } as IncomingMessage
  const res = {
    destroyed: false,
    writeHead: (status: number) => void log.push([id, 'head', status]),
    end: (body: unknown) => {
      if (options.endThrows) throw new Error('EPIPE')
      log.push([id, 'end', typeof body === 'string' ? body : Buffer.from(body as Uint8Array).toString()])
    },
    destroy: () => {
      res.destroyed = true
      log.push([id, 'destroy'])
    },
  }
  return { req, res: res as unknown as ServerResponse & { destroyed: boolean } }
}

const answer = (text: string): Answer => ({ status: 200, headers: { 'content-type': 'application/json' }, text })

describe('answers written at the end of the turn', () => {
  afterEach(() => vi.useRealTimers())

  it('sets each head at once and ends every answer of the turn after its I/O, in order', async () => {
    const log: Call[] = []
    const short = fakeExchange(log, 1)
    const long = fakeExchange(log, 2)
    writeAnswer(short.req, short.res, answer('{"a":1}'), {})
    // 1,024 characters and more go as bytes, through the same queue.
    writeAnswer(long.req, long.res, answer(JSON.stringify({ b: 'x'.repeat(2000) })), {})
    expect(log).toEqual([
      [1, 'head', 200],
      [2, 'head', 200],
    ])
    await nextTurn()
    expect(log.slice(2)).toEqual([
      [1, 'end', '{"a":1}'],
      [2, 'end', JSON.stringify({ b: 'x'.repeat(2000) })],
    ])
  })

  it('ends at once an answer that closes its connection: the body it refused unread keeps arriving while it waits', () => {
    const log: Call[] = []
    const { req, res } = fakeExchange(log, 1)
    const socket = {} as Socket
    Object.assign(res, { socket, setHeader: () => undefined, on: () => res })
    closeAfterAnswer(res, socket)
    writeAnswer(req, res, { ...answer('{"error":{}}'), status: 401 }, {})
    expect(log).toEqual([
      [1, 'head', 401],
      [1, 'end', '{"error":{}}'],
    ])
  })

  it(`writes the waiting answers at once when ${ENDS_PER_FLUSH} wait, so the first of a crowded turn does not wait for all`, async () => {
    const log: Call[] = []
    for (let id = 1; id <= ENDS_PER_FLUSH + 1; id++) {
      const { req, res } = fakeExchange(log, id)
      writeAnswer(req, res, answer(`{"id":${id}}`), {})
    }
    const ended = () => log.filter(([, what]) => what === 'end').map(([id]) => id)
    expect(ended()).toEqual(Array.from({ length: ENDS_PER_FLUSH }, (_, i) => i + 1))
    await nextTurn()
    expect(ended()).toHaveLength(ENDS_PER_FLUSH + 1)
  })

  it('skips a response destroyed meanwhile and destroys one whose end throws, ending the others', async () => {
    const log: Call[] = []
    const gone = fakeExchange(log, 1)
    const broken = fakeExchange(log, 2, { endThrows: true })
    const fine = fakeExchange(log, 3)
    for (const { req, res } of [gone, broken, fine]) writeAnswer(req, res, answer('{}'), {})
    gone.res.destroyed = true
    await nextTurn()
    expect(log.filter(([, what]) => what !== 'head')).toEqual([
      [2, 'destroy'],
      [3, 'end', '{}'],
    ])
  })

  it("is not held by a test's fake timers", async () => {
    vi.useFakeTimers()
    const log: Call[] = []
    const { req, res } = fakeExchange(log, 1)
    writeAnswer(req, res, answer('{}'), {})
    // A real turn passes (nextTurn is node:timers' own setImmediate); the fake clock never moves.
    await nextTurn()
    expect(log).toContainEqual([1, 'end', '{}'])
  })
})
