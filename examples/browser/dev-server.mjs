// Builds the example with esbuild and serves it: `node examples/browser/dev-server.mjs [port]`.
// The end-to-end test starts it the same way (startDevServer), on a free port.
import { copyFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
const publicDir = join(here, 'public')

/**
 * Copies MSW's worker script (same version as the msw the page bundles) into public/ and serves
 * public/ with the bundle built in memory. Returns the URL and a `stop()`.
 */
export async function startDevServer({ port = 5173, host = '127.0.0.1' } = {}) {
  // The worker script must match the installed msw exactly; take it from the package itself.
  const require = createRequire(import.meta.url)
  const mswRoot = dirname(require.resolve('msw/package.json'))
  mkdirSync(publicDir, { recursive: true })
  copyFileSync(join(mswRoot, 'lib', 'mockServiceWorker.js'), join(publicDir, 'mockServiceWorker.js'))

  const context = await esbuild.context({
    entryPoints: [join(here, 'src', 'main.ts')],
    bundle: true,
    format: 'esm',
    // Lazily imported modules (faker for seeded subscribers, graphql inside msw) become their
    // own chunks, fetched only if used.
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    outdir: join(publicDir, 'assets'),
    sourcemap: true,
    logLevel: 'warning',
  })
  const served = await context.serve({ servedir: publicDir, port, host })
  const url = `http://${host}:${served.port}/`
  return { url, stop: () => context.dispose() }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = process.argv[2] ? Number(process.argv[2]) : 5173
  const { url } = await startDevServer({ port })
  console.log(`sendbox browser example on ${url} (Ctrl+C to stop)`)
}
