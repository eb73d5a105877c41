/**
 * Imported first by the bench's own server targets that do not go through the CLI loader
 * (threaded-server.mjs): the same V8 heap flags scripts/cli-loader.mjs sets, so memory figures
 * compare like with like. Honours SENDBOX_V8_FLAGS as the loader does. (The loader's idle settle
 * is not repeated here.)
 */
import { setFlagsFromString } from 'node:v8'

const V8_FLAGS = process.env.SENDBOX_V8_FLAGS ?? '--heap-growing-percent=50 --semi-space-growth-factor=1'
for (const flag of V8_FLAGS.split(' ').filter(Boolean)) setFlagsFromString(flag)
