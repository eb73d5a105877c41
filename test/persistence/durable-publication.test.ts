/**
 * Issue 36, item 3's last clause (R14): nothing is published before its write is durable. A
 * standalone server with `--data`, a held long-poll, an event-stream client and a webhook
 * receiver; the store made to fail (deleted while running, as store-integrity.test.ts does): the
 * send answered 500 reached none of them, while a send before the failure reached all three.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { unlinkSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { json, scratch, dataServers, sendEmail } from './helpers.js'

const start = dataServers()
const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** A webhook receiver on loopback that keeps every body it gets. */
async function receiver(): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = []
  const server = createServer((request: IncomingMessage, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      bodies.push(body)
      response.end('ok')
    })
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, bodies }
}

/** An SSE client of `/__sandbox/events`: reads until a pattern has appeared. */
async function eventStream(origin: string) {
  const controller = new AbortController()
  const response = await fetch(`${origin}/__sandbox/events`, { signal: controller.signal })
  expect(response.status).toBe(200)
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  return {
    text: () => text,
    async until(pattern: RegExp): Promise<string> {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read()
        if (done) break
        text += value
      }
      return text
    },
    close: () => controller.abort(),
  }
}

const wait = (origin: string, subject: string, timeout: number) =>
  fetch(`${origin}/__sandbox/messages/wait?subject=${encodeURIComponent(subject)}&timeout=${timeout}`)

describe('--data: nothing is published before its write is durable (R14)', () => {
  it('a send answered 500 reached no waiter, no event stream and no webhook', async () => {
    const hooks = await receiver()
    const file = join(scratch(), 'sandbox.db')
    const cli = await start(file, ['--subscribers', '0', '--delivery-ms', '0', '--webhook-url', hooks.url])
    const stream = await eventStream(cli.origin)

    // Before the failure: a kept send reaches the waiter, the stream and the webhook.
    const keptWait = wait(cli.origin, 'kept', 10_000)
    const kept = await json<{ message_id: string }>(sendEmail(cli.apiUrl, 'kept'))
    expect((await json(keptWait)).message_id).toBe(kept.message_id)
    await stream.until(new RegExp(`event: message\\.captured\\ndata: [^\\n]*${kept.message_id}`))
    await expect.poll(() => hooks.bodies.some((b) => b.includes(kept.message_id)), { timeout: 10_000 }).toBe(true)

    // The store fails: the next send is undone and answered 500.
    unlinkSync(file)
    const lostWait = wait(cli.origin, 'lost', 3_000)
    const lost = await sendEmail(cli.apiUrl, 'lost')
    expect(lost.status).toBe(500)
    expect((await lost.json()).error.message).toMatch(/undone/)

    // The held waiter was not answered with it: it timed out (408) naming no message.
    const waited = await lostWait
    expect(waited.status).toBe(408)
    expect(JSON.stringify(await waited.json())).not.toMatch(/"lost"/)
    // The stream: the failed send's own journal line comes after any publication the send made;
    // no capture of the lost message came before it.
    const text = await stream.until(/event: request\ndata: [^\n]*"path":"\/v1\/email\/send"[^\n]*"status":500/)
    stream.close()
    expect(text).not.toMatch(/"subject":"lost"/)
    expect(text.match(/event: message\.captured/g)).toHaveLength(1)
    // No webhook attempt was made (or queued) for it: the inspector lists the kept message's only.
    const attempts = (
      await json<{ data: Array<{ message_id: string; request: { body: string } }> }>(
        fetch(`${cli.origin}/__sandbox/webhooks`),
      )
    ).data
    expect(attempts.length).toBeGreaterThan(0)
    expect(attempts.every((a) => a.message_id === kept.message_id)).toBe(true)
    expect(hooks.bodies.every((b) => b.includes(kept.message_id))).toBe(true)
  }, 60_000)
})
