import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The outbox the in-process outbox benches fill (bench/outbox-scale.mjs and bench/experiments/):
 * a sandbox of one build with instant lifecycles, no rate limit in the way and a cap of
 * `capacity`, and `send(key, i)`: the i-th bench email (1,000 recipients), captured the way the
 * email route captures it.
 *
 * @param distSrc the build's `dist/src` folder (this checkout's, or a reference build's).
 */
export async function emailOutbox(distSrc, capacity, apiKeys = ['bench:enterprise']) {
  const lib = (path) => import(pathToFileURL(join(distSrc, path)).href)
  const { createSandbox } = await lib('index.js')
  const { emailChannel } = await lib('domain/channels/index.js')
  const sandbox = createSandbox({ apiKeys, limits: { enterprise: 1_000_000 }, maxMessages: capacity, deliveryMs: 0 })
  await sandbox.ready
  const retryAfter = () => 1
  const send = (key, i, to = `user${i % 1000}@example.com`, html = `<p>Hi, this is message number ${i}.</p>`) => {
    const raw = { to, subject: 'Hello', html }
    sandbox.outbox.capture(emailChannel.capture(key, raw, raw, retryAfter))
  }
  return { sandbox, send }
}
