import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxClient } from '../../src/client/index.js'
import type { CheckReport } from '../../src/contract/checks.js'
import { createSandbox } from '../../src/index.js'
import { matchers } from '../../src/matchers.js'
import { auth, standalone } from '../helpers.js'
import { BAD_EMAIL, CLEAN_EMAIL } from './fixtures.js'

expect.extend(matchers)

describe('checks in-process: sandbox.checks and the matcher', () => {
  const sandbox = createSandbox({ deliveryMs: 0 })
  afterAll(() => sandbox.dispose())

  it('sandbox.checks takes a message or its id, keeps the report, and rejects an unknown id', async () => {
    const { getResponse } = await import('msw')
    const send = new Request(`${sandbox.baseUrl}/email/send`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: BAD_EMAIL }),
    })
    const { message_id: id } = (await (await getResponse(sandbox.handlers, send))!.json()) as { message_id: string }
    const message = sandbox.outbox.get(id)!
    const report = await sandbox.checks(message)
    expect(report.checks.map((c) => c.id)).toContain('links.javascript')
    expect(await sandbox.checks(id)).toBe(report)
    expect((await sandbox.checks(id, { refresh: true })).checked_at).toBeDefined()
    await expect(sandbox.checks('msg_missing')).rejects.toMatchObject({ status: 404, code: 'not_found' })
    // The matcher fails a test on the bad email, listing what remains.
    await expect(expect(message).toPassChecks()).rejects.toThrow(/links\.javascript/)
    await expect(expect(report).toPassChecks({ ignore: ['links'] })).resolves.toBeUndefined()
    await expect(expect(report).toPassChecks({ severity: 'warning', ignore: ['links.javascript'] })).rejects.toThrow(
      /images\.missing-alt/,
    )
    await expect(expect(report).not.toPassChecks()).resolves.toBeUndefined()
  })

  it('the matcher passes a clean email and refuses anything else with a message', async () => {
    const { getResponse } = await import('msw')
    const send = new Request(`${sandbox.baseUrl}/email/send`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: CLEAN_EMAIL }),
    })
    const { message_id: id } = (await (await getResponse(sandbox.handlers, send))!.json()) as { message_id: string }
    await expect(sandbox.outbox.get(id)).toPassChecks({ severity: 'warning', ignore: ['compatibility'] })
    await expect(expect({ nope: true }).toPassChecks()).rejects.toThrow(/takes a captured message/)
  })
})

describe('checks over HTTP: the client and the queue', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  let release: () => void = () => undefined
  const gate = new Promise<void>((resolve) => (release = resolve))
  beforeAll(async () => {
    // An HTML checker that waits for the gate: four checks run, one waits, the next is refused.
    server = await standalone({
      maxQueuedChecks: 1,
      htmlChecker: async () => (await gate, { checks: [], clients: [] }),
    })
  })
  afterAll(() => server.close())
  const send = async (html: string) =>
    (
      (await (
        await fetch(`${server.base}/email/send`, {
          method: 'POST',
          headers: auth(),
          body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html }),
        })
      ).json()) as { message_id: string }
    ).message_id

  it('queues at most the bound and answers 503 with Retry-After past it; client.messages.checks returns the report', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => send(`<p>${i}</p>`)))
    const asked = ids.map((id) => fetch(`${server.running.url}/__sandbox/messages/${id}/checks`))
    const refused = await asked[5]
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_clients')
    release()
    expect((await Promise.all(asked.slice(0, 5))).map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    const client = createSandboxClient({ url: server.running.url })
    const report: CheckReport = await client.messages.checks(ids[0])
    expect(report).toMatchObject({ message_id: ids[0], channel: 'email', live_links: false })
    expect((await client.messages.checks(ids[5], { refresh: true })).message_id).toBe(ids[5])
    await expect(client.messages.checks('msg_nope')).rejects.toMatchObject({ status: 404 })
  })
})
