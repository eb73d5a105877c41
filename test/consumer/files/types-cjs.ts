// A CommonJS project (no "type": "module"): every entry point resolves and type-checks, under
// `module: nodenext` (package.json "exports", the `require` condition) and `module: commonjs`
// (node10 resolution, which reads "typesVersions").
import { createSandbox, type CapturedMessage } from 'sendbox'
import { matchers, type SendboxMatchers } from 'sendbox/matchers'
import { startServer } from 'sendbox/server'

const sandbox = createSandbox({ deliveryMs: 0 })
export const handlers = sandbox.handlers
export const extension: typeof matchers = matchers
export const signatures: SendboxMatchers<void> | undefined = undefined
export const serving: Promise<unknown> = startServer(sandbox, { port: 0 })
export const latest: CapturedMessage | undefined = sandbox.outbox.list()[0]
