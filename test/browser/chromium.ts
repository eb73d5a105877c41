import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { HEADLESS_ARGS } from '../../src/http/screenshot/chromium.js'

/** Debian's chromium package (`apt-get install -y chromium`); `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Why the browser tests cannot run here, or undefined when they can. */
export const chromiumMissing: string | undefined = existsSync(CHROMIUM_PATH)
  ? undefined
  : `no Chromium at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH) to run the browser tests`

if (chromiumMissing) console.warn(`[sendbox] skipping browser tests: ${chromiumMissing}`)

/** Headless Chromium with the screenshot route's {@link HEADLESS_ARGS} (no sandbox, no GPU, no background traffic), plus `extraArgs` (for example `--host-resolver-rules=MAP evil.test 127.0.0.1`). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...HEADLESS_ARGS, ...extraArgs], timeout: 20_000 })
}

/**
 * One headless Chromium for a whole test file: launched before its first test, closed after its
 * last (call it at the top of the file). Each describe block takes a context of its own from it
 * (`browser().newContext()`): a context is as separate as another browser, and a second launch
 * costs a second or two of two busy cores.
 */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    if (!chromiumMissing) browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (!browser) throw new Error('no browser: browserForFile() runs at the top of a test file, and needs Chromium')
    return browser
  }
}
