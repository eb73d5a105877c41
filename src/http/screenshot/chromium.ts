import type { Browser, BrowserType } from 'playwright-core'
import { ApiError } from '../../domain/errors.js'

/*
 * Headless Chromium for the screenshot route, through playwright-core: an optional peer
 * dependency, imported when the first screenshot is asked for (docs/decisions/screenshots.md).
 * Without playwright-core or without a Chromium the route answers 501 `not_available`.
 */

/** Debian's and Ubuntu's Chromium (`apt-get install chromium`). */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium'

/** The flags of a browser nobody sees: no sandbox (containers run as root), no GPU, no background traffic. */
export const HEADLESS_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/**
 * The screenshot browser's: {@link HEADLESS_ARGS}; no site-isolation trials (the document's
 * `sandbox` CSP gives it an opaque origin, and under site isolation every navigation to it took a
 * new renderer process: a render's 250 ms became 550, docs/decisions/screenshot-speed.md); and
 * local network access allowed (the sandbox serves the page from loopback).
 */
export const CHROMIUM_ARGS = [
  ...HEADLESS_ARGS,
  '--disable-site-isolation-trials',
  '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights',
]

const HOW_TO_GET_ONE =
  'Install one (`apt-get install chromium`, or `npx playwright install chromium`) or point `CHROMIUM_PATH` at a Chrome or Chromium executable (`CHROMIUM_PATH=/path/to/chrome`), then ask again.'

/**
 * The package's name in a variable: a bundler (esbuild, Vite) leaves a non-literal import alone, so
 * a browser bundle of `sendbox` (setupWorker) never tries to bundle playwright-core and Node's modules.
 */
const PLAYWRIGHT_CORE = 'playwright-core'

/** Whether a file exists (node:fs reached at run time, for the same reason). */
function existsSync(path: string): boolean {
  return process.getBuiltinModule('node:fs').existsSync(path)
}

function notAvailable(why: string): ApiError {
  return new ApiError('not_available', `Screenshots need headless Chromium: ${why} ${HOW_TO_GET_ONE}`)
}

/** playwright-core's `chromium`, or a 501 saying how to install it. */
async function chromiumType(): Promise<BrowserType> {
  try {
    return ((await import(PLAYWRIGHT_CORE)) as typeof import('playwright-core')).chromium
  } catch (error) {
    // The CLI's bundle runs as a vm.Script, whose import() of a package fails; its require works.
    if (typeof require === 'function') {
      try {
        return (require(PLAYWRIGHT_CORE) as typeof import('playwright-core')).chromium
      } catch {
        // Not installed: answered below.
      }
    }
    throw notAvailable(
      `the package playwright-core is not installed here (${String((error as Error).message)
        .split('\n')[0]
        .slice(0, 200)}); \`npm install playwright-core\` adds it.`,
    )
  }
}

/**
 * The Chromium to run: `CHROMIUM_PATH` when set (a 501 when nothing is there), else
 * {@link SYSTEM_CHROMIUM}, else the one `npx playwright install chromium` downloaded.
 */
export function chromiumExecutable(
  type: Pick<BrowserType, 'executablePath'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const configured = env.CHROMIUM_PATH
  if (configured !== undefined && configured !== '') {
    if (existsSync(configured)) return configured
    throw notAvailable(`CHROMIUM_PATH is ${JSON.stringify(configured.slice(0, 300))}, where no file exists.`)
  }
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM
  let bundled = ''
  try {
    bundled = type.executablePath()
  } catch {
    // playwright-core knows no browser for this platform.
  }
  if (bundled !== '' && existsSync(bundled)) return bundled
  throw notAvailable(`no Chromium at ${SYSTEM_CHROMIUM}, none downloaded by Playwright, and CHROMIUM_PATH is not set.`)
}

/** Starts headless Chromium, or throws a 501 `not_available` that says what is missing. */
export async function launchChromium(): Promise<Browser> {
  const type = await chromiumType()
  const executablePath = chromiumExecutable(type)
  try {
    return await type.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 30_000 })
  } catch (error) {
    throw notAvailable(
      `${executablePath} did not start (${String((error as Error).message)
        .split('\n')[0]
        .slice(0, 300)}).`,
    )
  }
}
