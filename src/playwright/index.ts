/**
 * `sendbox/playwright`: Playwright Test with a `sandbox` fixture.
 *
 * @example
 * import { test, expect } from 'sendbox/playwright'
 * test('sign-up sends a link', async ({ page, sandbox }) => {
 *   const to = sandbox.recipient('email')
 *   await page.goto(`/signup?email=${encodeURIComponent(to)}`)
 *   const email = await sandbox.waitFor({ channel: 'email', to })
 *   await page.goto(email.links[0])
 * })
 *
 * Each worker starts its own standalone sandbox on a free loopback port, unless `SENDBOX_URL`
 * names a running one (its origin, like `http://127.0.0.1:4010`); the app under test is pointed
 * at `sandbox.apiUrl`. `@playwright/test` is an optional peer dependency: install it yourself.
 */
import {
  test as base,
  expect as playwrightExpect,
  type ExpectMatcherState,
  type MatcherReturnType,
} from '@playwright/test'
import {
  createSandboxClient,
  type CapturedMessage,
  type ClientWaitOptions,
  type OutboxFilter,
  type SandboxClient,
} from '../client/index.js'
import type { Channel } from '../contract/captured-message.js'
import { CHANNEL_READINGS } from '../domain/channels/readings.js'
import { matchers, type SendboxMatchers } from '../matchers.js'
import type { ChannelReading } from '../domain/channels/types.js'

type Address = ChannelReading<Channel>['address']

/** The sendbox matchers as Playwright's `expect.extend` types them: given the fixture's client they wait, so each returns a Promise. */
type PlaywrightMatchers = {
  [K in keyof SendboxMatchers]: (
    this: ExpectMatcherState,
    received: unknown,
    ...args: Parameters<SendboxMatchers[K]>
  ) => Promise<MatcherReturnType>
}

/**
 * Playwright's `expect` with every sendbox matcher (`toHaveSent`, `toHaveSentTimes`,
 * `toHaveSentNothing`, …), given a `sendbox/client` such as `sandbox.client`: they are
 * asynchronous and wait, so `await` them. Filters take Playwright's asymmetric matchers
 * (`expect.stringMatching`, `expect.arrayContaining`) as vitest's and jest's do.
 *
 * @example
 * await expect(sandbox.client).toHaveSent({ channel: 'email', to, links: expect.arrayContaining([expect.stringMatching(/verify/)]) })
 */
export const expect = playwrightExpect.extend(
  Object.fromEntries(
    Object.entries(matchers).map(([name, matcher]) => [
      name,
      // Playwright's matcher state throws on `this.equals` (microsoft/playwright#31723): the filter's
      // field values are compared by `fieldEquals` instead.
      function (this: ExpectMatcherState, received: unknown, ...args: unknown[]) {
        return (matcher as (...a: unknown[]) => MatcherReturnType).call(
          { isNot: this.isNot, utils: this.utils, equals: fieldEquals },
          received,
          ...args,
        )
      },
    ]),
  ) as unknown as PlaywrightMatchers,
)

/** A filter's field value against a message's: asymmetric matchers match themselves; the rest by deep equality. */
function fieldEquals(actual: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual)
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, i) => fieldEquals(actual[i], item))
    )
  if (expected === null || typeof expected !== 'object') return Object.is(actual, expected)
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false
  const keys = Object.keys(expected)
  return (
    keys.length === Object.keys(actual).length &&
    keys.every((key) =>
      fieldEquals((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]),
    )
  )
}

function isAsymmetric(value: unknown): value is { asymmetricMatch(other: unknown): boolean } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  )
}

/** The sandbox of one worker, with per-test helpers. */
export interface SandboxFixture {
  /** The sandbox's origin (`http://127.0.0.1:PORT`): the web inbox is at `${url}/__sandbox/ui/`. */
  url: string
  /** The API base URL to give the app under test (`${url}/v1`). */
  apiUrl: string
  /** The sandbox controls (`sendbox/client`). */
  client: SandboxClient
  /** When this test started (Unix ms): the default `since` of {@link SandboxFixture.waitFor}. */
  since: number
  /** A recipient no other test (or worker) uses: an address of the kind the channel's `to` takes (an email address, a phone number). */
  recipient(channel?: Channel): string
  /** `client.outbox.waitFor` with `since` defaulting to this test's start. */
  waitFor(filter?: OutboxFilter, options?: ClientWaitOptions): Promise<CapturedMessage>
}

/** Options, set with `test.use({ … })` or in the config's `use`. */
export interface SandboxFixtureOptions {
  /**
   * Reset the sandbox before each test. `'auto'` (default): when the worker started its own
   * sandbox, yes; against a shared `SENDBOX_URL`, no (another worker's messages would go too —
   * unique recipients and `since` keep tests apart instead).
   */
  sandboxReset: boolean | 'auto'
  /** The admin token of the sandbox at `SENDBOX_URL` (default: `SENDBOX_ADMIN_TOKEN`). */
  sandboxAdminToken: string | undefined
}

/** The worker-scoped fixture `sandboxWorker`: a worker fixture of yours (an app server per worker) can depend on it. */
export interface WorkerSandbox {
  /** The sandbox's origin. */
  url: string
  /** The API base URL (`${url}/v1`). */
  apiUrl: string
  client: SandboxClient
  /** True when it is the sandbox at `SENDBOX_URL`, shared with other workers. */
  shared: boolean
}

/** A standalone sandbox in this worker, on a free loopback port. */
async function startOwn(): Promise<{ url: string; close: () => Promise<void> }> {
  const [{ createSandbox }, { startServer }, { createServer }] = await Promise.all([
    import('../index.js'),
    import('../transports/http-server.js'),
    import('node:net'),
  ])
  // A free port first, so that the sandbox's base URL (links of the web inbox) is the real one.
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
  })
  const sandbox = createSandbox({ baseUrl: `http://127.0.0.1:${port}/v1` })
  const running = await startServer(sandbox, { port, host: '127.0.0.1' })
  return {
    url: running.url,
    close: async () => {
      await running.close()
      sandbox.dispose()
    },
  }
}

let counter = 0
const phones = new Set<string>()

/** Playwright's `test` with the `sandbox` fixture (and its options). */
export const test = base.extend<{ sandbox: SandboxFixture } & SandboxFixtureOptions, { sandboxWorker: WorkerSandbox }>({
  sandboxReset: ['auto', { option: true }],
  sandboxAdminToken: [process.env.SENDBOX_ADMIN_TOKEN, { option: true }],
  sandboxWorker: [
    async ({}, use) => {
      const shared = process.env.SENDBOX_URL
      if (shared) {
        const client = createSandboxClient({ url: shared, adminToken: process.env.SENDBOX_ADMIN_TOKEN })
        await client.health()
        await use({ url: client.url, apiUrl: `${client.url}/v1`, client, shared: true })
        return
      }
      const own = await startOwn()
      try {
        await use({
          url: own.url,
          apiUrl: `${own.url}/v1`,
          client: createSandboxClient({ url: own.url }),
          shared: false,
        })
      } finally {
        await own.close()
      }
    },
    { scope: 'worker' },
  ],
  sandbox: async ({ sandboxWorker, sandboxReset, sandboxAdminToken }, use, testInfo) => {
    const client =
      sandboxAdminToken && sandboxWorker.shared
        ? createSandboxClient({ url: sandboxWorker.url, adminToken: sandboxAdminToken })
        : sandboxWorker.client
    if (sandboxReset === true || (sandboxReset === 'auto' && !sandboxWorker.shared)) await client.reset()
    const since = Date.now()
    const tag = `w${testInfo.workerIndex}t${testInfo.testId.slice(0, 8)}n`
    await use({
      url: sandboxWorker.url,
      apiUrl: sandboxWorker.apiUrl,
      client,
      since,
      recipient: (channel = 'email') => {
        counter++
        // One way to make an unused address per kind of address a channel has (a new kind fails to compile here).
        const unused: Record<Address, () => string> = {
          email: () => `${tag}${counter}.${since.toString(36)}@example.com`,
          // +1 415 then the worker's digit and six random ones, never twice in a worker.
          phone: () => {
            for (;;) {
              const phone = `+1415${testInfo.parallelIndex % 10}${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`
              if (!phones.has(phone)) return (phones.add(phone), phone)
            }
          },
        }
        return unused[CHANNEL_READINGS[channel].address]()
      },
      waitFor: (filter = {}, options = {}) => client.outbox.waitFor(filter, { since, ...options }),
    })
  },
})
