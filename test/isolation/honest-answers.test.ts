/**
 * Issue 36, item 2 ("honest limits and answers"), each finding re-run through the public surface:
 * R7 a programmatic server with team tokens and no admin token, R6 the key oracle of the inbound
 * and opt-out controls, R10 a team's health and another team's resets, R1's held waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standalone } from '../helpers.js'

const TEAMS = [
  { name: 'acme-qa', token: 'team_acme_0123456789', accounts: ['acme'] },
  { name: 'globex-qa', token: 'team_globex_0123456789', accounts: ['globex'] },
]
const apiKeys = { acme_key: 'pro:acme', globex_key: 'pro:globex', hidden_key: 'pro:hidden' } as const

describe('a programmatic server with team tokens and no admin token (R7)', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  beforeAll(async () => {
    server = await standalone({ apiKeys, teamTokens: TEAMS })
  })
  afterAll(() => server?.close())

  it('refuses every control to a request without a team token, and opens them to a team token', async () => {
    for (const [method, path] of [
      ['GET', '/__sandbox/messages'],
      ['POST', '/__sandbox/reset'],
      ['GET', '/__sandbox/health'],
      ['DELETE', '/__sandbox/faults'],
      ['POST', '/__sandbox/clock'],
    ] as const) {
      const answer = await fetch(`${server.running.url}${path}`, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
        body: method === 'POST' ? '{}' : undefined,
      })
      expect({ path, status: answer.status }).toEqual({ path, status: 401 })
      expect((await answer.json()).error.message).toMatch(/need a team token/)
    }
    const mine = await fetch(`${server.running.url}/__sandbox/whoami`, {
      headers: { authorization: `Bearer ${TEAMS[0].token}` },
    })
    expect(await mine.json()).toMatchObject({ role: 'team', name: 'acme-qa' })
  })
})

describe('team tokens on a shared server', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  const ADMIN = 'adm_honest_answers_0001'
  const as = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.running.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    })
  beforeAll(async () => {
    server = await standalone({ apiKeys, teamTokens: TEAMS, adminToken: ADMIN, maxWaiters: 6 })
    for (const key of ['acme_key', 'globex_key', 'hidden_key']) {
      await fetch(`${server.base}/sms/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+14155550100', message: `hello from ${key}` }),
      })
    }
  })
  afterAll(() => server?.close())

  it("answers another account's key and a missing key alike, and never lists accounts it does not own (R6)", async () => {
    for (const path of ['/__sandbox/inbound', '/__sandbox/opt-outs']) {
      const body = (key: string) =>
        JSON.stringify(
          path.endsWith('inbound')
            ? { channel: 'sms', key, from: '+14155550111', text: 'hi' }
            : { key, number: '+14155550111' },
        )
      const foreign = await as(TEAMS[0].token, path, { method: 'POST', body: body('globex_key') })
      const missing = await as(TEAMS[0].token, path, { method: 'POST', body: body('no_such_key') })
      const [f, m] = [await foreign.json(), await missing.json()]
      expect([foreign.status, missing.status]).toEqual([400, 400])
      expect(f.error.code).toBe(m.error.code)
      expect(f.error.message.replace('globex_key', 'X')).toBe(m.error.message.replace('no_such_key', 'X'))
      const unknown = await (
        await as(TEAMS[0].token, path, {
          method: 'POST',
          body: path.endsWith('inbound')
            ? JSON.stringify({ channel: 'sms', account: 'nope', from: '+14155550111', text: 'hi' })
            : JSON.stringify({ account: 'nope', number: '+14155550111' }),
        })
      ).json()
      expect(unknown.error.message).toContain('acme')
      expect(unknown.error.message).not.toMatch(/globex|hidden/)
    }
  })

  it("shows a team its own counts in health and keeps another team's resets out of its stream (R10)", async () => {
    const admin = await (await as(ADMIN, '/__sandbox/health')).json()
    const acme = await (await as(TEAMS[0].token, '/__sandbox/health')).json()
    expect(admin.messages).toBe(3)
    expect(acme).toMatchObject({ messages: 1, data: null })
    expect(acme.outbox_bytes).toBeLessThan(admin.outbox_bytes)
    expect(acme.requests).toBeLessThan(admin.requests)

    const controller = new AbortController()
    const stream = await as(TEAMS[0].token, '/__sandbox/events', { signal: controller.signal })
    const reader = stream.body!.getReader()
    await reader.read() // the opening comment
    expect((await as(TEAMS[1].token, '/__sandbox/reset', { method: 'POST' })).status).toBe(200)
    expect((await as(TEAMS[0].token, '/__sandbox/reset?scope=faults', { method: 'POST' })).status).toBe(200)
    const { value } = await reader.read()
    const text = new TextDecoder().decode(value)
    expect(text).toContain('"scope":"faults"')
    expect(text).not.toContain('globex')
    controller.abort()
  })

  it("rate limits a team's writing controls with the API's 429 and Retry-After, and leaves the admin alone (R1)", async () => {
    // 600 writes a minute per team (the earlier tests of this file made a few of them already).
    let accepted = 0
    let refused = await as(TEAMS[1].token, '/__sandbox/faults', { method: 'DELETE' })
    for (; refused.status === 200 && accepted < 700; accepted++)
      refused = await as(TEAMS[1].token, '/__sandbox/faults', { method: 'DELETE' })
    expect(accepted).toBeGreaterThan(590)
    expect(accepted).toBeLessThanOrEqual(600)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await refused.json()).error.code).toBe('rate_limit_exceeded')
    expect((await as(TEAMS[0].token, '/__sandbox/faults', { method: 'DELETE' })).status).toBe(200)
    expect((await as(ADMIN, '/__sandbox/faults', { method: 'DELETE' })).status).toBe(200)
    expect((await as(TEAMS[1].token, '/__sandbox/faults')).status).toBe(200)
  })

  it("keeps a team's share of the waits when another team holds all it may (R1)", async () => {
    const controller = new AbortController()
    const wait = (token: string) =>
      as(token, '/__sandbox/messages/wait?timeout=60000&to=%2B19999999999', { signal: controller.signal }).then(
        (r) => r.status,
        () => 0,
      )
    // 6 waits, 3 callers (the admin, two teams): acme may hold 2, plus none of the others' room.
    const waiters = async (token: string) => (await (await as(token, '/__sandbox/health')).json()).waiters as number
    const held = Array.from({ length: 2 }, () => wait(TEAMS[0].token))
    while ((await waiters(TEAMS[0].token)) < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(await wait(TEAMS[0].token)).toBe(503)
    const globex = wait(TEAMS[1].token)
    while ((await waiters(TEAMS[1].token)) < 1) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(await waiters(TEAMS[0].token)).toBe(2)
    controller.abort()
    await Promise.all([...held, globex])
  })
})
