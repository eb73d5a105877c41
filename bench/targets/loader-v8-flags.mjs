/**
 * Imported first by the bench's own server targets that do not go through the CLI loader
 * (threaded-server.mjs): the same V8 heap flags scripts/cli-loader.mjs sets, so memory figures
 * compare like with like. Honours SENDBOX_V8_FLAGS as the loader does. (The loader's idle settle
 * is not repeated here.) The default is read from the loader's source, where it is set.
 */
import { readFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'

const loader = readFileSync(new URL('../../scripts/cli-loader.mjs', import.meta.url), 'utf8')
const defaults = /process\.env\.SENDBOX_V8_FLAGS \?\? '([^']*)'/.exec(loader)
if (!defaults)
  throw new Error("scripts/cli-loader.mjs no longer sets its V8 flags as `process.env.SENDBOX_V8_FLAGS ?? '…'`")
const V8_FLAGS = process.env.SENDBOX_V8_FLAGS ?? defaults[1]
for (const flag of V8_FLAGS.split(' ').filter(Boolean)) setFlagsFromString(flag)
