/**
 * Team tokens (`--team-token`): each token sees and changes its own accounts only, through every
 * `/__sandbox` path. The matrix is derived from the route table: every control route, asked by
 * each team token with the other team's ids and accounts, must answer without a byte of the other
 * team's data, and leave the other team's data as it was. A control route added without a request
 * here fails the test (add one to REQUESTS).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROUTES } from '../../src/http/routes.js'
import type { CapturedMessage } from '../../src/index.js'
import { standalone } from '../helpers.js'

const ADMIN = 'adm_team_matrix_admin_0001'
const TEAMS = {
  acme: {
    name: 'acme-qa',
    token: 'team_acme_0123456789',
    accounts: ['acme'],
    key: 'acme_key',
    number: '+14155550101',
    email: 'ana@acme-only.test',
    marker: 'ACME-SECRET',
  },
  globex: {
    name: 'globex-qa',
    token: 'team_globex_0123456789',
    accounts: ['globex', 'initech'],
    key: 'globex_key',
    number: '+14155550202',
    email: 'bo@globex-only.test',
    marker: 'GLOBEX-SECRET',
  },
} as const
type Team = keyof typeof TEAMS
const other = (team: Team): Team => (team === 'acme' ? 'globex' : 'acme')

let server: Awaited<ReturnType<typeof standalone>>
let hooks: Server
/** Per team: its email's id, its inbound reply's id, one of its webhook attempts' id. */
const ids = {} as Record<Team, { email: string; inbound: string; attempt: string }>

const control = (path: string, token: string | undefined, init: RequestInit = {}) =>
  fetch(`${server.running.url}${path}`, {
    ...init,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  })
const api = (path: string, key: string, body: unknown) =>
  fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

/** Everything that would betray a team's data in an answer. */
function leaks(team: Team): string[] {
  const t = TEAMS[team]
  return [t.marker, t.email, t.number, ...t.accounts.map((a) => `"${a}"`), t.key, ...Object.values(ids[team])]
}

async function seed(team: Team): Promise<void> {
  const t = TEAMS[team]
  const email = await (
    await api('/email/send', t.key, {
      to: t.email,
      subject: `${t.marker} subject`,
      html: `<p>${t.marker} code 123456</p>`,
    })
  ).json()
  expect((await api('/sms/send', t.key, { to: t.number, message: `${t.marker} sms` })).status).toBe(200)
  const inbound = await (
    await control('/__sandbox/inbound', ADMIN, {
      method: 'POST',
      body: JSON.stringify({ channel: 'sms', key: t.key, from: t.number, text: 'STOP' }),
    })
  ).json()
  const fault = await control('/__sandbox/faults', ADMIN, {
    method: 'POST',
    body: JSON.stringify({ status: 503, path: `/v1/never-${t.marker}`, account: t.accounts[0] }),
  })
  expect(fault.status).toBe(200)
  ids[team] = { email: email.message_id, inbound: inbound.message.message_id, attempt: '' }
}

/** What each team-open route is asked, by operationId: the other team's ids and accounts. */
const REQUESTS: Record<string, (victim: Team) => { path: string; body?: unknown }> = {
  whoami: () => ({ path: '/__sandbox/whoami' }),
  sandboxHealth: () => ({ path: '/__sandbox/health' }),
  listCapturedMessages: (v) => ({ path: `/__sandbox/messages?limit=100&account=${TEAMS[v].accounts[0]}` }),
  clearCapturedMessages: () => ({ path: '/__sandbox/messages' }),
  getCapturedMessage: (v) => ({ path: `/__sandbox/messages/${ids[v].email}` }),
  deleteCapturedMessage: (v) => ({ path: `/__sandbox/messages/${ids[v].email}` }),
  getCapturedMessageHtml: (v) => ({ path: `/__sandbox/messages/${ids[v].email}/html` }),
  getCapturedMessagePreview: (v) => ({ path: `/__sandbox/messages/${ids[v].email}/preview` }),
  getCapturedMessageScreenshot: (v) => ({ path: `/__sandbox/messages/${ids[v].email}/screenshot.png` }),
  getMessageChecks: (v) => ({ path: `/__sandbox/messages/${ids[v].email}/checks` }),
  listRequests: (v) => ({ path: `/__sandbox/requests?limit=100&account=${TEAMS[v].accounts[0]}` }),
  resetSandbox: () => ({ path: '/__sandbox/reset' }),
  listFaults: () => ({ path: '/__sandbox/faults' }),
  addFault: (v) => ({ path: '/__sandbox/faults', body: { status: 500, account: TEAMS[v].accounts[0] } }),
  clearFaults: () => ({ path: '/__sandbox/faults' }),
  getClock: () => ({ path: '/__sandbox/clock' }),
  listKeys: () => ({ path: '/__sandbox/keys' }),
  waitForMessage: (v) => ({ path: `/__sandbox/messages/wait?timeout=150&to=${encodeURIComponent(TEAMS[v].email)}` }),
  streamEvents: () => ({ path: '/__sandbox/events' }),
  listTemplates: () => ({ path: '/__sandbox/templates' }),
  simulateInbound: (v) => ({
    path: '/__sandbox/inbound',
    body: { channel: 'sms', key: TEAMS[v].key, from: TEAMS[v].number, text: 'START' },
  }),
  listOptOuts: (v) => ({ path: `/__sandbox/opt-outs?account=${TEAMS[v].accounts[0]}` }),
  addOptOut: (v) => ({ path: '/__sandbox/opt-outs', body: { account: TEAMS[v].accounts[0], number: '+14155559999' } }),
  removeOptOut: (v) => ({ path: '/__sandbox/opt-outs', body: { key: TEAMS[v].key, number: TEAMS[v].number } }),
  listWebhookAttempts: (v) => ({ path: `/__sandbox/webhooks?account=${TEAMS[v].accounts[0]}` }),
  replayWebhook: (v) => ({ path: `/__sandbox/webhooks/${ids[v].attempt}/replay` }),
  metrics: () => ({ path: '/__sandbox/metrics' }),
}

const controls = ROUTES.filter((r) => r.scope === 'sandbox' && !r.public)

/** The victim's data as the admin sees it: nothing a team token did may change it. */
async function victimState(v: Team) {
  const accounts = new Set<string>(TEAMS[v].accounts)
  const messages = (await (await control('/__sandbox/messages?limit=100', ADMIN)).json()).data
    .filter((m: CapturedMessage) => accounts.has(m.account))
    .map((m: CapturedMessage) => m.message_id)
    .sort()
  const optOuts = (await (await control('/__sandbox/opt-outs', ADMIN)).json()).data.filter((o: { account: string }) =>
    accounts.has(o.account),
  )
  const faults = (await (await control('/__sandbox/faults', ADMIN)).json()).data
    .filter((f: { account: string | null }) => f.account !== null && accounts.has(f.account))
    .map((f: { id: string }) => f.id)
  const subscribers = await (
    await fetch(`${server.base}/subscribers?limit=100`, { headers: { authorization: `Bearer ${TEAMS[v].key}` } })
  ).json()
  return { messages, optOuts, faults, subscribers: subscribers.data.map((s: { id: string }) => s.id) }
}

describe('team tokens over HTTP', () => {
  beforeAll(async () => {
    hooks = createServer((_req, res) => res.writeHead(200).end('ok')).listen(0, '127.0.0.1')
    await new Promise((r) => hooks.once('listening', r))
    server = await standalone({
      apiKeys: { acme_key: 'pro:acme', globex_key: 'pro:globex', initech_key: 'starter:initech' },
      adminToken: ADMIN,
      teamTokens: Object.values(TEAMS).map(({ name, token, accounts }) => ({ name, token, accounts })),
      subscribers: 2,
      deliveryMs: 0,
      webhook: { url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks` },
    })
    for (const team of Object.keys(TEAMS) as Team[]) await seed(team)
    // Webhook attempts come and go asynchronously: wait for one per team.
    for (let i = 0; i < 200 && (Object.keys(TEAMS) as Team[]).some((t) => !ids[t].attempt); i++) {
      const attempts = (await (await control('/__sandbox/webhooks?limit=100', ADMIN)).json()).data as {
        id: string
        account: string
      }[]
      for (const team of Object.keys(TEAMS) as Team[])
        ids[team].attempt ||=
          attempts.find((a) => (TEAMS[team].accounts as readonly string[]).includes(a.account))?.id ?? ''
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(ids.acme.attempt && ids.globex.attempt).toBeTruthy()
  })
  afterAll(async () => {
    await server?.close()
    hooks?.close()
  })

  it('names who is signed in', async () => {
    expect(await (await control('/__sandbox/whoami', TEAMS.globex.token)).json()).toEqual({
      role: 'team',
      name: 'globex-qa',
      accounts: ['globex', 'initech'],
    })
    expect(await (await control('/__sandbox/whoami', ADMIN)).json()).toMatchObject({ role: 'admin', name: null })
    expect((await control('/__sandbox/whoami', 'team_wrong_0123456789')).status).toBe(401)
    expect((await control('/__sandbox/whoami', undefined)).status).toBe(401)
  })

  it("shows a team its own accounts' messages, requests, keys, faults and opt-outs", async () => {
    for (const team of Object.keys(TEAMS) as Team[]) {
      const t = TEAMS[team]
      const list = (await (await control('/__sandbox/messages?limit=100', t.token)).json()).data as CapturedMessage[]
      expect(list.map((m) => m.message_id)).toEqual(expect.arrayContaining([ids[team].email, ids[team].inbound]))
      expect(new Set(list.map((m) => m.account))).toEqual(new Set([t.accounts[0]]))
      expect((await control(`/__sandbox/messages/${ids[team].email}`, t.token)).status).toBe(200)
      const preview = await (await control(`/__sandbox/messages/${ids[team].email}/preview`, t.token)).json()
      expect(await (await fetch(`${server.running.url}${preview.html_url}`)).text()).toContain(t.marker)
      const keys = (await (await control('/__sandbox/keys', t.token)).json()).data as { account: string }[]
      expect(keys.every((k) => (t.accounts as readonly string[]).includes(k.account)) && keys.length > 0).toBe(true)
      const requests = (await (await control('/__sandbox/requests?limit=100', t.token)).json()).data as {
        account: string | null
      }[]
      expect(requests.length).toBeGreaterThan(0)
      expect(requests.every((r) => r.account !== null && (t.accounts as readonly string[]).includes(r.account))).toBe(
        true,
      )
      expect((await (await control('/__sandbox/faults', t.token)).json()).data).toHaveLength(1)
      expect((await (await control('/__sandbox/opt-outs', t.token)).json()).data).toEqual([
        expect.objectContaining({ account: t.accounts[0], number: t.number }),
      ])
      expect((await (await control('/__sandbox/webhooks', t.token)).json()).data.length).toBeGreaterThan(0)
    }
  })

  it('keeps the clock, the MCP endpoint and the shared reset scopes for the admin token (403 forbidden)', async () => {
    const t = TEAMS.acme.token
    const clock = await control('/__sandbox/clock', t, { method: 'POST', body: JSON.stringify({ advance_ms: 1000 }) })
    expect(clock.status).toBe(403)
    expect((await clock.json()).error.code).toBe('forbidden')
    expect((await control('/__sandbox/mcp', t, { method: 'POST', body: '{}' })).status).toBe(403)
    for (const scope of ['journal', 'limits', 'webhooks']) {
      const reset = await control(`/__sandbox/reset?scope=${scope}`, t, { method: 'POST', body: '{}' })
      expect(reset.status, scope).toBe(403)
    }
    // Every control a team token may not use is one the route table marks so: none slips through.
    for (const route of controls.filter((r) => !r.team)) {
      const response = await control(route.path.replace('{id}', 'x'), t, {
        method: route.method,
        ...(route.method === 'GET' ? {} : { body: '{}' }),
      })
      expect(response.status, `${route.method} ${route.path}`).toBe(403)
    }
  })

  for (const attacker of Object.keys(TEAMS) as Team[]) {
    it(`${attacker}'s token: every /__sandbox route answers without the other team's data and leaves it as it was`, async () => {
      const victim = other(attacker)
      const before = await victimState(victim)
      const teamRoutes = controls.filter((r) => r.team)
      expect(teamRoutes.length).toBeGreaterThan(15)
      for (const route of teamRoutes) {
        const make = REQUESTS[route.operationId]
        expect(make, `a request for ${route.operationId} in REQUESTS`).toBeDefined()
        const { path, body } = make!(victim)
        const ac = new AbortController()
        const response = await control(path, TEAMS[attacker].token, {
          method: route.method,
          signal: ac.signal,
          ...(route.method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
        })
        let text: string
        if (route.operationId === 'streamEvents') {
          // Stream while the victim's account sends, captures a reply and moves a message: none of it may arrive.
          const reader = response.body!.getReader()
          const chunks: string[] = []
          const reading = (async () => {
            for (;;) {
              const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
              if (done) return
              chunks.push(new TextDecoder().decode(value))
            }
          })()
          const mine = await (
            await api('/sms/send', TEAMS[attacker].key, {
              to: TEAMS[attacker].number.replace(/1$/, '9'),
              message: 'mine',
            })
          ).json()
          const theirs = await (
            await api('/sms/send', TEAMS[victim].key, {
              to: TEAMS[victim].number,
              message: `${TEAMS[victim].marker} live`,
            })
          ).json()
          await new Promise((r) => setTimeout(r, 300))
          ac.abort()
          await reading
          text = chunks.join('')
          expect(text).toContain(mine.message_id)
          before.messages.push(theirs.message_id)
          before.messages.sort()
        } else {
          text = await response.text()
        }
        expect(
          [200, 400, 403, 404, 408],
          `${route.method} ${path}: ${response.status} ${text.slice(0, 200)}`,
        ).toContain(response.status)
        // What the attacker sent may be echoed (a 404 naming the id, a timeout naming the filter): that tells nothing.
        const asked = `${decodeURIComponent(path)} ${JSON.stringify(body ?? {})}`
        const answer = leaks(victim)
          .filter((leak) => !leak.startsWith('"') && asked.includes(leak))
          .reduce((t, leak) => t.replaceAll(leak, '<asked>'), text)
        for (const leak of leaks(victim)) expect(answer, `${route.method} ${path} shows ${leak}`).not.toContain(leak)
      }
      const after = await victimState(victim)
      expect(after).toEqual(before)
    })
  }

  it("a team reset and clear act on the team's accounts and nobody else's", async () => {
    const before = await victimState('globex')
    const reset = await control('/__sandbox/reset', TEAMS.acme.token, { method: 'POST', body: '{}' })
    expect(await reset.json()).toEqual({ ok: true, scope: 'all' })
    expect((await (await control('/__sandbox/messages', TEAMS.acme.token)).json()).data).toEqual([])
    expect((await (await control('/__sandbox/opt-outs', TEAMS.acme.token)).json()).data).toEqual([])
    const acmeSubscribers = await (
      await fetch(`${server.base}/subscribers`, { headers: { authorization: 'Bearer acme_key' } })
    ).json()
    expect(acmeSubscribers.pagination.total).toBe(2)
    expect(await victimState('globex')).toEqual(before)
  })
})
