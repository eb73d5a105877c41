// The live controls through the standalone server, with real HTTP clients: a long poll that
// answers when the message arrives, a waiter dropped when its client hangs up, and the event
// stream read as a browser's EventSource would (text/event-stream over one open response).
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auth, standalone } from '../helpers.js'

let server: Awaited<ReturnType<typeof standalone>>
beforeAll(async () => {
  server = await standalone({ deliveryMs: 0 })
})
afterAll(() => server.close())

const controls = () => server.running.url + '/__sandbox'
const sendSms = (to: string, message: string) =>
  fetch(`${server.base}/sms/send`, { method: 'POST', headers: auth(), body: JSON.stringify({ to, message }) })
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(check()).toBe(true)
}

describe('live controls over HTTP', () => {
  it('GET /messages/wait answers 200 as soon as the message is captured', async () => {
    const waiting = fetch(`${controls()}/messages/wait?channel=sms&to=+14155550177&timeout=10000`)
    await until(() => server.sandbox.outbox.waiting === 1)
    await sendSms('+14155550177', 'Your code is 551200')
    const res = await waiting
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ channel: 'sms', to: '+14155550177', codes: ['551200'] })
    expect(server.sandbox.outbox.waiting).toBe(0)
  })

  it('408 wait_timeout names the filter and the nearest misses', async () => {
    const res = await fetch(`${controls()}/messages/wait?channel=sms&to=%2B14155550999&timeout=50`)
    expect(res.status).toBe(408)
    const body = await res.json()
    expect(body.error.code).toBe('wait_timeout')
    expect(body.error.message).toMatch(/^no SMS to \+14155550999 in 50 ms; the last SMS went to \+14155550177/)
  })

  it('a thousand waiters are held at once and each is dropped when its client hangs up', async () => {
    const controllers = Array.from({ length: 1000 }, () => new AbortController())
    const pending = controllers.map((c) =>
      fetch(`${controls()}/messages/wait?channel=email&timeout=60000`, { signal: c.signal }).catch(() => 'aborted'),
    )
    await until(() => server.sandbox.outbox.waiting === 1000)
    for (const c of controllers) c.abort()
    expect(new Set(await Promise.all(pending))).toEqual(new Set(['aborted']))
    await until(() => server.sandbox.outbox.waiting === 0)
  })

  it('GET /events streams captures and status steps as Server-Sent Events', async () => {
    const events: Array<{ event: string; data: { type: string } }> = []
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest(`${controls()}/events`, { headers: { accept: 'text/event-stream' } }, resolve)
        .on('error', reject)
        .end()
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/)
    let buffer = ''
    response.setEncoding('utf8')
    response.on('data', (chunk: string) => {
      buffer += chunk
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.+)$/m.exec(block)?.[1]
        const data = /^data: (.+)$/m.exec(block)?.[1]
        if (event && data) events.push({ event, data: JSON.parse(data) })
      }
    })
    await until(() => server.sandbox.events.size > 0)
    await sendSms('+14155550188', 'hello')
    await until(() => events.some((e) => e.event === 'message.status'))
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['message.captured', 'request', 'message.status']),
    )
    for (const e of events) expect(e.data.type).toBe(e.event)
    response.destroy()
    await until(() => server.sandbox.events.size === 0)
  })
})
