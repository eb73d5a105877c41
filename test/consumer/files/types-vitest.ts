// Type-checked (not run) in the consumer matrix with skipLibCheck: false, under each module setting.
import { setupServer } from 'msw/node'
import { createSandbox, type CapturedMessage } from 'sendbox'
import { matchers, type SendboxMatchers } from 'sendbox/matchers'
import { startServer } from 'sendbox/server'
import { expect } from 'vitest'

expect.extend(matchers)
const sandbox = createSandbox()
export const server = setupServer(...sandbox.handlers)
export const started: Promise<unknown> = startServer(sandbox, { port: 0 })
const returned: void = expect(sandbox).toHaveSent({ channel: 'email', to: 'ana@example.com' })
expect(sandbox).not.toHaveSentTimes({ channel: 'sms' }, 2)
expect(sandbox.outbox).toHaveSentNothing()
// @ts-expect-error the filter is an object
expect(sandbox).toHaveSent('email')
export const message: Promise<CapturedMessage & { channel: 'email' }> = sandbox.outbox.waitFor({ channel: 'email' })
export const shape: SendboxMatchers<void> | undefined = undefined
export { returned }
