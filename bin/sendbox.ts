#!/usr/bin/env node
import { runCli } from '../src/cli/run.js'

runCli(process.argv.slice(2)).then(
  (result) => {
    if (typeof result === 'number') process.exitCode = result
  },
  (error: unknown) => {
    process.stderr.write(`sendbox: ${(error as Error)?.message ?? String(error)}\n`)
    process.exitCode = 1
  },
)
