import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startCli } from '../cli-child.js'

/**
 * `sendbox/playwright` through Playwright Test itself: `npx playwright test` with two workers and
 * Debian's Chromium runs test/playwright/signup.spec.ts (a page signs up through a tiny app, the
 * test waits for the email and opens its link). Uses the built package (`npm run build`).
 */
const DIR = fileURLToPath(new URL('.', import.meta.url))
const CHROMIUM = '/usr/bin/chromium'
const missing = !existsSync(CHROMIUM)
if (missing) console.log(`skipped: sendbox/playwright needs Chromium at ${CHROMIUM} (apt-get install chromium)`)

interface Report {
  stats: { expected: number; unexpected: number; skipped: number; flaky: number }
  suites: Array<{
    specs: Array<{
      title: string
      tests: Array<{ results: Array<{ workerIndex: number; status: string; error?: { message?: string } }> }>
    }>
  }>
}

/** Runs the spec with `npx playwright test` and checks every test passed, on two workers. */
async function runSpec(extraEnv: Record<string, string> = {}) {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_'))),
    ...extraEnv,
  }
  const { stdout } = await new Promise<{ stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      [fileURLToPath(import.meta.resolve('@playwright/test/cli')), 'test', '--config', 'playwright.config.ts'],
      { cwd: DIR, env, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout) => resolve({ stdout }),
    )
  })
  const report = JSON.parse(stdout) as Report
  const results = report.suites.flatMap((s) =>
    s.specs.flatMap((spec) => spec.tests.flatMap((t) => t.results.map((r) => ({ title: spec.title, ...r })))),
  )
  const failures = results
    .filter((r) => r.status !== 'passed')
    .map((r) => `${r.title}: ${r.error?.message ?? r.status}`)
  expect(failures).toEqual([])
  expect(report.stats).toMatchObject({ expected: 6, unexpected: 0 })
  expect(new Set(results.map((r) => r.workerIndex)).size).toBe(2)
}

describe.skipIf(missing)('sendbox/playwright', () => {
  it('runs a spec with two workers, each with its own sandbox', { timeout: 120_000 }, () => runSpec())

  it(
    'runs the same spec against one running sandbox (SENDBOX_URL), not resetting it',
    { timeout: 120_000 },
    async () => {
      const cli = await startCli(['--no-ui', '--port', '0'])
      try {
        await runSpec({ SENDBOX_URL: cli.origin })
        const listed = (await (await fetch(`${cli.origin}/__sandbox/messages?channel=email`)).json()) as {
          pagination: { total: number }
        }
        expect(listed.pagination.total).toBe(5) // the four sign-ups and the matcher test's email, none reset away
      } finally {
        cli.kill()
      }
    },
  )
})
