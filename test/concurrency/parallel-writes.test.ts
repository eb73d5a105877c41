/**
 * Concurrency, in-process and over HTTP: parallel updates of one subscriber (last write wins, no
 * torn record, email index consistent), parallel creates of one email (exactly one wins), rate
 * limits exact with N requests in flight at once, 200 parallel creates (unique ids, exact totals).
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxOptions, Subscriber } from '../../src/index.js'
import { auth, inProcess, standalone } from '../helpers.js'

/** A way to call the API, the same for both transports. */
interface Transport {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  close(): Promise<void>
}

const transports: Record<string, (options: SandboxOptions) => Promise<Transport>> = {
  'in-process': async (options) => {
    const sb = inProcess(options)
    return { call: sb.call, close: async () => sb.dispose() }
  },
  http: async (options) => {
    const server = await standalone(options)
    return {
      call: (method, path, body, headers = auth()) =>
        fetch(`${server.base}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      close: server.close,
    }
  },
}

/** A clock that moves 1 ms on every read: every write gets its own updated_at. */
function tickingClock() {
  let now = Date.UTC(2026, 10, 21, 12, 0, 0)
  return () => (now += 1)
}

for (const [name, open] of Object.entries(transports)) {
  describe(`concurrency ${name}`, () => {
    let transport: Transport | undefined
    afterEach(async () => {
      await transport?.close()
      transport = undefined
    })

    it('50 parallel full updates of one subscriber: every answer and the final record are whole, the last write wins, the email index follows', async () => {
      transport = await open({ now: tickingClock() })
      const created = (await (
        await transport.call('POST', '/subscribers', { email: 'start@example.com', phone: '+14155550000' })
      ).json()) as Subscriber
      const record = (i: number) => ({
        email: `u${i}@example.com`,
        phone: `+1415555${1000 + i}`,
        first_name: `Name ${i}`,
        tags: [`t${i}`, 'shared'],
      })
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          transport!
            .call('PUT', `/subscribers/${created.id}`, record(i))
            .then(async (r) => ({ status: r.status, body: (await r.json()) as Subscriber })),
        ),
      )
      expect(answers.every((a) => a.status === 200)).toBe(true)
      const whole = (s: Subscriber) => {
        const i = Number(/^u(\d+)@/.exec(s.email ?? '')?.[1])
        return (
          JSON.stringify({ email: s.email, phone: s.phone, first_name: s.first_name, tags: s.tags }) ===
          JSON.stringify(record(i))
        )
      }
      for (const { body } of answers) expect(whole(body), JSON.stringify(body)).toBe(true)
      const final = (await (await transport.call('GET', `/subscribers/${created.id}`)).json()) as Subscriber
      expect(whole(final)).toBe(true)
      const latest = answers
        .map((a) => a.body)
        .sort((a, b) => a.updated_at.localeCompare(b.updated_at))
        .at(-1)!
      const tied = answers.map((a) => a.body).filter((b) => b.updated_at === latest.updated_at)
      expect(
        tied.some((b) => JSON.stringify(b) === JSON.stringify(final)),
        'the final record is the last write',
      ).toBe(true)
      // The email index holds the winner's address only: every other one is free again.
      const winner = final.email
      const claims = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          transport!
            .call('POST', '/subscribers', { email: `U${i}@example.com` })
            .then(async (r) => ({ email: `u${i}@example.com`, status: r.status, code: (await r.json()).error?.code })),
        ),
      )
      for (const claim of claims) {
        if (claim.email === winner) expect(claim).toMatchObject({ status: 400, code: 'duplicate_email' })
        else expect(claim.status, claim.email).toBe(200)
      }
      const list = await (await transport.call('GET', '/subscribers?limit=100')).json()
      expect(list.pagination.total).toBe(50)
    })

    it('parallel partial updates of different fields all land', async () => {
      transport = await open({})
      const created = (await (
        await transport.call('POST', '/subscribers', { email: 'partial@example.com' })
      ).json()) as Subscriber
      const patches = [
        { first_name: 'Ana' },
        { phone: '+14155550199' },
        { tags: ['a', 'b', 'a'] },
        { email: 'partial2@example.com' },
      ]
      const statuses = await Promise.all(
        patches.map((patch) => transport!.call('PUT', `/subscribers/${created.id}`, patch).then((r) => r.status)),
      )
      expect(statuses).toEqual([200, 200, 200, 200])
      const final = (await (await transport.call('GET', `/subscribers/${created.id}`)).json()) as Subscriber
      expect(final).toMatchObject({
        first_name: 'Ana',
        phone: '+14155550199',
        tags: ['a', 'b'],
        email: 'partial2@example.com',
      })
    })

    it('50 parallel creates with one email (in different cases): exactly one succeeds, the rest are duplicate_email; another account is unaffected', async () => {
      transport = await open({})
      const variants = ['ana@example.com', 'Ana@Example.com', 'ANA@EXAMPLE.COM', 'aNa@example.COM']
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          transport!
            .call('POST', '/subscribers', { email: variants[i % variants.length], first_name: `try ${i}` })
            .then(async (r) => ({ status: r.status, body: await r.json() })),
        ),
      )
      const won = answers.filter((a) => a.status === 200)
      expect(won).toHaveLength(1)
      for (const lost of answers.filter((a) => a.status !== 200))
        expect(lost).toMatchObject({ status: 400, body: { error: { code: 'duplicate_email', param: 'email' } } })
      const list = await (await transport.call('GET', '/subscribers')).json()
      expect(list.pagination.total).toBe(1)
      expect(list.data[0].id).toBe(won[0].body.id)
      const other = await Promise.all(
        Array.from({ length: 10 }, () =>
          transport!
            .call('POST', '/subscribers', { email: 'ana@example.com' }, auth('test_starter'))
            .then((r) => r.status),
        ),
      )
      expect(other.filter((s) => s === 200)).toHaveLength(1)
    })

    it('a rate limit of 50 with 120 requests in flight at once admits exactly 50; 401s and other keys do not count', async () => {
      transport = await open({ limits: { starter: 50 } })
      const requests = Array.from({ length: 120 }, (_, i) => {
        const kind = i % 4
        if (kind === 0)
          return transport!.call('POST', '/sms/send', { to: '+14155550123', message: `m${i}` }, auth('test_starter'))
        if (kind === 1) return transport!.call('GET', '/subscribers', undefined, auth('test_starter'))
        if (kind === 2) return transport!.call('POST', '/email/send', { to: 'not-an-email' }, auth('test_starter'))
        return transport!.call('GET', '/nowhere', undefined, auth('test_starter'))
      })
      const strangers = Array.from({ length: 30 }, () =>
        transport!.call('GET', '/subscribers', undefined, auth('wrong_key')),
      )
      const others = Array.from({ length: 30 }, () =>
        transport!.call('GET', '/subscribers', undefined, auth('test_pro')),
      )
      const [mine, theirs, pro] = await Promise.all([
        Promise.all(requests),
        Promise.all(strangers),
        Promise.all(others),
      ])
      const admitted = mine.filter((r) => r.status !== 429)
      expect(admitted).toHaveLength(50)
      const remaining = admitted.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)
      expect(remaining).toEqual(Array.from({ length: 50 }, (_, i) => i))
      for (const rejected of mine.filter((r) => r.status === 429)) {
        expect(Number(rejected.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        expect(rejected.headers.get('x-ratelimit-remaining')).toBe('0')
        expect((await rejected.json()).error.code).toBe('rate_limit_exceeded')
      }
      expect(theirs.every((r) => r.status === 401)).toBe(true)
      expect(pro.every((r) => r.status === 200)).toBe(true)
      // Rejected requests did not count: still exactly full, not over.
      const after = await transport.call('GET', '/subscribers', undefined, auth('test_starter'))
      expect(after.status).toBe(429)
    })

    it('200 parallel creates: 200 unique ids, total exactly 200, every page in creation order', async () => {
      transport = await open({})
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          transport!
            .call('POST', '/subscribers', { email: `p${i}@example.com`, tags: [`n${i}`] })
            .then(async (r) => ({ status: r.status, body: (await r.json()) as Subscriber })),
        ),
      )
      expect(answers.every((a) => a.status === 200)).toBe(true)
      const ids = new Set(answers.map((a) => a.body.id))
      expect(ids.size).toBe(200)
      const listed: Subscriber[] = []
      for (let page = 1; page <= 3; page++) {
        const body = await (await transport.call('GET', `/subscribers?page=${page}&limit=100`)).json()
        expect(body.pagination).toEqual({ page, limit: 100, total: 200, pages: 2 })
        listed.push(...body.data)
      }
      expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort())
      const created = listed.map((s) => s.created_at)
      expect(created).toEqual([...created].sort())
    })
  })
}
