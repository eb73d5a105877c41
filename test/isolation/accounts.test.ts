/**
 * Isolation between accounts, in-process and over HTTP: no key reads, updates, lists or counts
 * another account's subscribers; another account's ids answer exactly like ids that never
 * existed; duplicate_email is per account; /__sandbox filters by account show that account only.
 * Keys configured to share an account do share.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Sandbox, SandboxOptions, Subscriber } from '../../src/index.js'
import { auth, inProcess, standalone } from '../helpers.js'

interface Transport {
  sandbox: Sandbox
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  control(path: string, init?: RequestInit): Promise<Response>
  close(): Promise<void>
}

const transports: Record<string, (options: SandboxOptions) => Promise<Transport>> = {
  'in-process': async (options) => {
    const sb = inProcess(options)
    const origin = new URL(sb.base).origin
    return {
      sandbox: sb.sandbox,
      call: sb.call,
      control: (path, init) => fetch(`${origin}${path}`, init),
      close: async () => sb.dispose(),
    }
  },
  http: async (options) => {
    const server = await standalone(options)
    return {
      sandbox: server.sandbox,
      call: (method, path, body, headers = auth()) =>
        fetch(`${server.base}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      control: (path, init) => fetch(`${server.running.url}${path}`, init),
      close: server.close,
    }
  },
}

const KEYS = {
  acme_a: 'pro:acme',
  acme_b: 'starter:acme',
  globex_key: 'pro:globex',
  initech_key: 'enterprise',
} as const

for (const [name, open] of Object.entries(transports)) {
  describe(`account isolation ${name}`, () => {
    let transport: Transport | undefined
    afterEach(async () => {
      await transport?.close()
      transport = undefined
    })

    it("no key reads, updates, lists or counts another account's subscribers; their ids answer like unknown ones", async () => {
      transport = await open({ apiKeys: KEYS, subscribers: 3 })
      const t = transport
      const created = (await (
        await t.call('POST', '/subscribers', { email: 'ana@acme.test', first_name: 'Ana' }, auth('acme_a'))
      ).json()) as Subscriber
      const acmeList = await (await t.call('GET', '/subscribers?limit=100', undefined, auth('acme_a'))).json()
      const acmeIds: string[] = acmeList.data.map((s: Subscriber) => s.id)
      expect(acmeList.pagination.total).toBe(4)
      // The other key of the same account sees the same subscribers.
      const shared = await (await t.call('GET', '/subscribers?limit=100', undefined, auth('acme_b'))).json()
      expect(shared.data.map((s: Subscriber) => s.id)).toEqual(acmeIds)
      for (const outsider of ['globex_key', 'initech_key']) {
        const list = await (await t.call('GET', '/subscribers?limit=100', undefined, auth(outsider))).json()
        expect(list.pagination.total, outsider).toBe(3)
        expect(list.data.some((s: Subscriber) => acmeIds.includes(s.id))).toBe(false)
        for (const id of acmeIds) {
          const get = await t.call('GET', `/subscribers/${id}`, undefined, auth(outsider))
          const unknown = await t.call('GET', `/subscribers/${id}x`, undefined, auth(outsider))
          expect(get.status).toBe(404)
          const [a, b] = [await get.json(), await unknown.json()]
          expect(a.error.code).toBe('not_found')
          // Indistinguishable from an id that never existed (only the echoed id differs).
          expect(a.error.message.replace(id, 'ID')).toBe(b.error.message.replace(`${id}x`, 'ID'))
          const put = await t.call(
            'PUT',
            `/subscribers/${id}`,
            { first_name: 'Mallory', email: 'mallory@evil.test' },
            auth(outsider),
          )
          expect(put.status).toBe(404)
        }
      }
      const after = await (await t.call('GET', `/subscribers/${created.id}`, undefined, auth('acme_b'))).json()
      expect(after).toEqual(created)
      // Another account's emails never make a duplicate.
      const same = await t.call('POST', '/subscribers', { email: 'ANA@acme.test' }, auth('globex_key'))
      expect(same.status).toBe(200)
      const dup = await t.call('POST', '/subscribers', { email: 'ANA@acme.test' }, auth('acme_b'))
      expect((await dup.json()).error.code).toBe('duplicate_email')
    })

    it('/__sandbox/messages and /__sandbox/requests filtered by account show that account only', async () => {
      transport = await open({ apiKeys: KEYS, deliveryMs: 0 })
      const t = transport
      const accountOf = (key: string) => t.sandbox.keys.find((k) => k.key === key)!.account
      for (const key of ['acme_a', 'acme_b', 'globex_key', 'initech_key']) {
        await t.call('POST', '/sms/send', { to: '+14155550123', message: `from ${key}` }, auth(key))
        await t.call('POST', '/email/send', { to: 'ana@example.com', subject: key, html: '<p>x</p>' }, auth(key))
        await t.call('GET', '/subscribers', undefined, auth(key))
      }
      for (const [key, expected] of [
        ['acme_a', 4],
        ['globex_key', 2],
        ['initech_key', 2],
      ] as const) {
        const account = accountOf(key)
        const messages = await (
          await t.control(`/__sandbox/messages?account=${encodeURIComponent(account)}&limit=100`)
        ).json()
        expect(messages.pagination.total, key).toBe(expected)
        expect(messages.data.every((m: { account: string }) => m.account === account)).toBe(true)
        const channelFiltered = await (
          await t.control(`/__sandbox/messages?account=${encodeURIComponent(account)}&channel=sms`)
        ).json()
        expect(
          channelFiltered.data.every(
            (m: { account: string; channel: string }) => m.account === account && m.channel === 'sms',
          ),
        ).toBe(true)
        const journal = await (
          await t.control(`/__sandbox/requests?account=${encodeURIComponent(account)}&limit=100`)
        ).json()
        expect(journal.pagination.total, key).toBe((expected / 2) * 3)
        expect(journal.data.every((e: { account: string }) => e.account === account)).toBe(true)
      }
      // An account that does not exist, or a key given instead of an account, selects nothing.
      for (const account of ['nobody', 'acme_a', '']) {
        const messages = await (await t.control(`/__sandbox/messages?account=${encodeURIComponent(account)}`)).json()
        expect(messages.pagination.total, account).toBe(0)
      }
    })
  })
}
