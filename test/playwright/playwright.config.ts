import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'

/** Run by test/playwright/fixture.test.ts: two workers, Debian's Chromium, headless. */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: join(tmpdir(), 'sendbox-playwright-results'),
  workers: 2,
  fullyParallel: true,
  retries: 0,
  timeout: 30_000,
  reporter: [['json']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] },
  },
})
