import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSandboxClient, type SandboxClient } from '../../src/client/index.js'
import { matchers } from '../../src/matchers.js'
import { startCli, type CliChild } from '../cli-child.js'

expect.extend(matchers)

/** The matchers given a `sendbox/client`: asynchronous, waiting for what they expect. */
let cli: CliChild
let client: SandboxClient
const sms = (to: string, message: string) =>
  fetch(`${cli.apiUrl}/sms/send`, {
    method: 'POST',
    headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
    body: JSON.stringify({ to, message }),
  })

beforeAll(async () => {
  cli = await startCli(['--no-ui', '--port', '0'])
  client = createSandboxClient({ url: cli.origin })
})
afterAll(() => cli?.kill())
beforeEach(() => client.reset())

describe('await expect(client).toHaveSent(…)', () => {
  it('waits for a message sent later, with field checks read from the whole message', async () => {
    setTimeout(() => void sms('+14155550123', 'Your code is 654321'), 200)
    await expect(client).toHaveSent({ channel: 'sms', to: '+14155550123', codes: ['654321'], text: /code is \d{6}/ })
  })

  it('fails after the timeout with the filter and the nearest misses', async () => {
    await sms('+14155550188', 'Hello there')
    const failure = await (
      expect(client).toHaveSent({ channel: 'sms', to: '+14155550999' }, { timeout: 300 }) as unknown as Promise<void>
    ).then(
      () => undefined,
      (e: Error) => e,
    )
    expect(failure?.message).toBe(
      'expected an SMS to +14155550999 to have been sent; the last SMS went to +14155550188 "Hello there" (queued)',
    )
  })

  it('counts with toHaveSentTimes, and looks once for .not and toHaveSentNothing', async () => {
    setTimeout(() => void Promise.all([sms('+14155550123', 'a'), sms('+14155550123', 'b')]), 100)
    await expect(client).toHaveSentTimes({ to: '+14155550123' }, 2)
    await expect(client).not.toHaveSent({ to: '+14155550777' })
    await expect(client).toHaveSentNothing({ channel: 'email' })
    await expect(expect(client).toHaveSentNothing({ channel: 'sms' })).rejects.toThrow(
      'expected no SMS, but 2 were sent',
    )
  })
})
