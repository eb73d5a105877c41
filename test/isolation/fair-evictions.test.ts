/**
 * Issue 36, R1 for the shared bounds that evict: the journal, webhook attempts and the webhook
 * delivery queue. Team A floods through its writing controls (inbound replies, replays of its own
 * attempt: its whole 600 a minute); team B keeps its journal entries and attempts, and its reply
 * after the flood gets its `message.received` webhook.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standalone } from '../helpers.js'

const ADMIN = 'adm_fair_evictions_0001'
const A = { name: 'acme-qa', token: 'team_acme_0123456789', accounts: ['acme'] }
const B = { name: 'globex-qa', token: 'team_globex_0123456789', accounts: ['globex'] }

let server: Awaited<ReturnType<typeof standalone>>
let hooks: Server
const received: string[] = []

const as = (token: string, path: string, body?: unknown) =>
  fetch(`${server.running.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const reply = (team: typeof A, from: string, text: string) =>
  as(team.token, '/__sandbox/inbound', { channel: 'sms', account: team.accounts[0], from, text })
const total = async (token: string, path: string) => (await (await as(token, path)).json()).pagination.total as number

beforeAll(async () => {
  hooks = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    request.on('end', () => (received.push(body), response.end('ok')))
  })
  await new Promise<void>((done) => hooks.listen(0, '127.0.0.1', done))
  const url = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`
  // Every event is posted twice (duplicates 1), so A's 600 writes make more attempts than the 1,000 kept.
  server = await standalone({
    apiKeys: { acme_key: 'pro:acme', globex_key: 'pro:globex' },
    teamTokens: [A, B],
    adminToken: ADMIN,
    maxRequests: 200,
    webhook: { url, duplicates: 1 },
    deliveryMs: 0,
  })
})
afterAll(async () => {
  await server?.close()
  hooks?.close()
})

describe('one team flooding the shared journal and webhooks (R1)', () => {
  it('team B keeps its journal entries and attempts, and gets its message.received', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await fetch(`${server.base}/sms/send`, {
            method: 'POST',
            headers: { authorization: 'Bearer globex_key', 'content-type': 'application/json' },
            body: JSON.stringify({ to: '+14155550100', message: `b ${i}` }),
          })
        ).status,
      ).toBe(200)
      expect((await reply(B, '+14155550200', `b reply ${i}`)).status).toBe(200)
    }
    await server.sandbox.webhooks!.idle()
    const bJournal = await total(B.token, '/__sandbox/requests?limit=100')
    const bAttempts = await total(B.token, '/__sandbox/webhooks?limit=100')
    expect(bJournal).toBeGreaterThan(3)
    expect(bAttempts).toBeGreaterThan(3)

    // A's flood: its whole budget of writing controls, replies and replays of its own first attempt.
    expect((await reply(A, '+14155550300', 'a first')).status).toBe(200)
    await server.sandbox.webhooks!.idle()
    const mine = (await (await as(A.token, '/__sandbox/webhooks?limit=1')).json()).data[0].id as string
    const statuses: number[] = []
    for (let batch = 0; batch < 30; batch++) {
      const writes = Array.from({ length: 20 }, (_, i) =>
        i % 4 === 0
          ? as(A.token, `/__sandbox/webhooks/${mine}/replay`, {})
          : reply(A, '+14155550300', `flood ${batch} ${i}`),
      )
      statuses.push(...(await Promise.all(writes)).map((r) => r.status))
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(550)
    await server.sandbox.webhooks!.idle()
    // A made more attempts than are kept, and more journal lines (one per attempt) than --max-requests.
    expect(await total(A.token, '/__sandbox/webhooks?limit=1')).toBeGreaterThan(900)
    expect(await total(A.token, '/__sandbox/requests?limit=1')).toBeGreaterThan(90)

    // B's own entries and attempts are all still there.
    expect(await total(B.token, '/__sandbox/requests?limit=100')).toBe(bJournal)
    expect(await total(B.token, '/__sandbox/webhooks?limit=100')).toBe(bAttempts)
    // And B's reply after the flood reaches B's receiver.
    const after = await (await reply(B, '+14155550200', 'b after the flood')).json()
    await server.sandbox.webhooks!.idle()
    expect(received.some((body) => body.includes(after.message.message_id) && body.includes('message.received'))).toBe(
      true,
    )
  }, 60_000)
})

describe("the checks queue shared by every account (R1, issue 35's queue)", () => {
  let checks: Awaited<ReturnType<typeof standalone>>
  let release: () => void = () => undefined
  const gate = new Promise<void>((resolve) => (release = resolve))
  beforeAll(async () => {
    // An HTML checker held at a gate: 4 checks run, 4 may wait.
    checks = await standalone({
      apiKeys: { acme_key: 'pro:acme', globex_key: 'pro:globex' },
      maxQueuedChecks: 4,
      htmlChecker: async () => (await gate, { checks: [], clients: [] }),
    })
  })
  afterAll(() => checks?.close())
  const send = async (key: string, i: number) =>
    (
      (await (
        await fetch(`${checks.base}/email/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ to: 'ana@example.com', subject: `Hi ${i}`, html: `<p>${i}</p>` }),
        })
      ).json()) as { message_id: string }
    ).message_id
  const check = (id: string) => fetch(`${checks.running.url}/__sandbox/messages/${id}/checks`).then((r) => r.status)

  it('an account filling the queue is refused more, and another account still gets its check', async () => {
    const a = await Promise.all(Array.from({ length: 9 }, (_, i) => send('acme_key', i)))
    const b = await send('globex_key', 100)
    const asked: Array<Promise<number>> = []
    for (const id of a.slice(0, 8)) {
      asked.push(check(id))
      // One at a time, so the order they queue in is the order asked.
      while (checks.sandbox.checkReports.pending < asked.length) await new Promise((resolve) => setTimeout(resolve, 5))
    }
    // A holds the 4 running and the 4 waiting: its 9th is refused.
    expect(await check(a[8])).toBe(503)
    // B is below its share: it takes the place of A's oldest waiting check, which is answered 503.
    const mine = check(b)
    expect(await asked[4]).toBe(503)
    release()
    expect(await mine).toBe(200)
    expect(await Promise.all([...asked.slice(0, 4), ...asked.slice(5)])).toEqual([200, 200, 200, 200, 200, 200, 200])
  }, 30_000)
})
