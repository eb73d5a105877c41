// jest's expect, both ways: global (@types/jest) and imported from @jest/globals.
import { expect as imported } from '@jest/globals'
import { createSandbox } from 'sendbox'
import { matchers } from 'sendbox/matchers'

imported.extend(matchers)
const sandbox = createSandbox()
const a: void = imported(sandbox).toHaveSent({ channel: 'sms', to: '+14155550123' })
imported(sandbox).not.toHaveSentNothing()
const b: void = expect(sandbox).toHaveSentTimes({ channel: 'email' }, 1)
// @ts-expect-error times is a number
expect(sandbox).toHaveSentTimes({ channel: 'email' }, '1')
export { a, b }
