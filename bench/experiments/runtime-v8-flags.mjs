/** Imported first by memory-probe-server.mjs: V8 flags set at run time (PROBE_V8_FLAGS), as the CLI loader could. */
import { setFlagsFromString } from 'node:v8'

for (const flag of (process.env.PROBE_V8_FLAGS ?? '').split(' ').filter(Boolean)) setFlagsFromString(flag)
