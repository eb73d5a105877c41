import { describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { startServer } from '../../src/transports/http-server.js'
import { auth } from '../helpers.js'

/**
 * Issue 14 item 14: `startServer` → `close()` → `startServer` on the same port, then `fetch`,
 * failed with "other side closed" in 17 of 30 runs: the client's pool (undici behind global
 * fetch) reused a keep-alive socket the old server had left open. `close()` now closes idle
 * keep-alive connections at once and the rest as soon as they are answered (with
 * `Connection: close`), so no socket outlives the server. 50 restarts, each with a GET and a
 * POST on a kept-alive connection, none may fail.
 */
describe('restarting the standalone server on the same port', () => {
  it('answers after each of 50 close → startServer cycles', async () => {
    const sandbox = createSandbox({ baseUrl: 'http://127.0.0.1:4010/v1', apiKeys: { k_restart: 'enterprise' } })
    let running = await startServer(sandbox, { port: 0 })
    const port = running.port
    const failures: string[] = []
    try {
      for (let i = 0; i < 50; i++) {
        try {
          const health = await fetch(`${running.url}/__sandbox/health`)
          await health.text()
          const sent = await fetch(`${running.url}/v1/sms/send`, {
            method: 'POST',
            headers: auth('k_restart'),
            body: JSON.stringify({ to: '+14155550123', message: `restart ${i}` }),
          })
          expect(sent.status).toBe(200)
          await sent.text()
        } catch (error) {
          failures.push(`run ${i}: ${String((error as { cause?: unknown }).cause ?? error)}`)
        }
        await running.close()
        running = await startServer(sandbox, { port })
      }
    } finally {
      await running.close()
      sandbox.dispose()
    }
    expect(failures).toEqual([])
    expect(sandbox.outbox.list({ channel: 'sms' })).toHaveLength(50)
  }, 60_000)
})
