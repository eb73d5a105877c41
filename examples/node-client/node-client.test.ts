import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { createSandbox } from 'sendbox'
import { startServer } from 'sendbox/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { capturedMessage, createClient } from './client.mjs'

// The standalone server, exactly what `npx sendbox` runs, on a free port.
const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', deliveryMs: 0, limits: { starter: 2 } })
let baseUrl: string
let close: () => Promise<void>

beforeAll(async () => {
  const running = await startServer(sandbox, { port: 0 })
  baseUrl = `${running.url}/v1`
  close = running.close
})
afterAll(async () => {
  await close()
  sandbox.dispose()
})

describe('examples/node-client: plain fetch against the standalone server', () => {
  it('sends, manages subscribers and reads the outbox', async () => {
    const client = createClient({ baseUrl, apiKey: 'test_pro' })
    const sent = await client.sendEmail('ana@example.com', 'Welcome', '<p>Hello</p>')
    expect(sent).toEqual({ success: true, message_id: expect.stringMatching(/^msg_/), status: 'queued' })
    const created = await client.createSubscriber({ email: 'ana@example.com', first_name: 'Ana', tags: ['vip', 'vip'] })
    expect(created).toMatchObject({ email: 'ana@example.com', tags: ['vip'], phone: null })
    expect(await client.updateSubscriber(created.id, { phone: '+14155550123' })).toMatchObject({
      phone: '+14155550123',
    })
    expect((await client.listSubscribers(1, 10)).pagination).toEqual({ page: 1, limit: 10, total: 1, pages: 1 })
    await expect(client.getSubscriber('sub_nope')).rejects.toMatchObject({ status: 404, code: 'not_found' })
    await expect(client.sendSms('+1', 'x')).rejects.toMatchObject({ status: 400, code: 'invalid_phone', param: 'to' })
    expect(await capturedMessage(baseUrl, sent.message_id)).toMatchObject({
      status: 'delivered',
      email: { subject: 'Welcome' },
    })
  })

  it('surfaces 429 rate_limit_exceeded once its retries are used up (starter limited to 2/min here)', async () => {
    const client = createClient({ baseUrl, apiKey: 'test_starter', maxRetries: 0 })
    await client.sendSms('+14155550123', 'one')
    await client.sendSms('+14155550123', 'two')
    await expect(client.sendSms('+14155550123', 'three')).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
    })
  })

  it('runs as a script against SENDBOX_URL', async () => {
    const script = fileURLToPath(new URL('./client.mjs', import.meta.url))
    // Asynchronous on purpose: the server runs in this process and must keep answering.
    const result = await promisify(execFile)(process.execPath, [script], {
      encoding: 'utf8',
      timeout: 15_000,
      env: { ...process.env, SENDBOX_URL: baseUrl.replace(/\/v1$/, '') },
    })
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/email accepted: msg_\S+ queued/)
    expect(result.stdout).toMatch(/refused as expected: invalid_email \(to\)/)
    expect(result.stdout).toMatch(/outbox says: delivered Welcome/)
  })
})
