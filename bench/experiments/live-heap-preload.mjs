/**
 * Loaded into a sendbox CLI by live-heap-per-message.mjs (`NODE_OPTIONS=--expose-gc --import`):
 * on SIGUSR2 it runs a full GC and writes process.memoryUsage() (MB) to $LIVE_HEAP_OUT.
 */
import { writeFileSync } from 'node:fs'

process.on('SIGUSR2', () => {
  globalThis.gc?.()
  const usage = process.memoryUsage()
  const mb = (bytes) => bytes / 2 ** 20
  writeFileSync(
    process.env.LIVE_HEAP_OUT,
    JSON.stringify({
      rss: mb(usage.rss),
      heapUsed: mb(usage.heapUsed),
      heapTotal: mb(usage.heapTotal),
      external: mb(usage.external),
    }),
  )
})
