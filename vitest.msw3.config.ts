import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The in-process suites again, from the sources, under msw 3 (`npm run test:msw3`: Node 24, msw 3
 * installed beside the repository by scripts/msw3.sh): every import of `msw`, `msw/node` and
 * `msw/browser` — ours and the tests' — resolves to that copy. The main suite (`npm test`) runs the
 * same files under msw 2 (the dev dependency) on the machine's Node 20, so the `HttpHandler.parse`
 * contract (test/api/route-matching.test.ts, docs/decisions/msw-parse.md) is tested per major.
 */
const msw3 = fileURLToPath(new URL('./node_modules/.cache/msw3/node_modules/msw', import.meta.url))
if (!existsSync(msw3)) throw new Error(`no msw 3 at ${msw3}: run \`npm run test:msw3\` (it installs it)`)

/** `msw`, `msw/node`, … → msw 3's files for them (its package.json `exports`, default condition). */
const manifest = JSON.parse(readFileSync(`${msw3}/package.json`, 'utf8')) as {
  exports: Record<string, string | { default?: string }>
}
const alias = Object.entries(manifest.exports).flatMap(([entry, target]) => {
  const file = typeof target === 'string' ? target : target.default
  if (!file || entry.includes('*')) return []
  return [
    { find: new RegExp(`^msw${entry.slice(1).replace(/[./]/g, '\\$&')}$`), replacement: `${msw3}/${file.slice(2)}` },
  ]
})

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/api/**/*.test.ts', 'test/sandbox/**/*.test.ts', 'examples/vitest/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
    // Read by the few tests whose subject msw itself changes between majors.
    env: { SENDBOX_MSW_MAJOR: '3' },
  },
})
