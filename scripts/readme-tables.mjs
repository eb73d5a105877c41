#!/usr/bin/env node
// Writes the docs' generated tables, each between its `<!-- NAME:begin -->` and
// `<!-- NAME:end -->` markers: the settings in docs/settings.md (src/contract/settings.ts, through
// the CLI's settingsTable), the terminal UI's keys in docs/terminal-ui.md
// (src/ui/terminal/keymap.ts) and the error codes in docs/api.md (src/contract/error.ts). Tests
// fail when a page's table differs from what this writes (test/cli/readme-flags.test.ts,
// src/ui/terminal/keymap.test.ts, src/contract/error.test.ts). Run after `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs'
import { settingsTable } from '../dist/src/cli/options.js'
import { keysTable } from '../dist/src/ui/terminal/keymap.js'
import { errorsTable } from '../dist/src/contract/error.js'

const TABLES = [
  ['docs/settings.md', 'settings', settingsTable()],
  ['docs/terminal-ui.md', 'keys', keysTable()],
  ['docs/api.md', 'errors', errorsTable()],
]
for (const [page, name, table] of TABLES) {
  const path = new URL(`../${page}`, import.meta.url)
  const text = readFileSync(path, 'utf8')
  const begin = `<!-- ${name}:begin -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(begin)
  const to = text.indexOf(end)
  if (from < 0 || to < from) throw new Error(`${page} has no ${begin} … ${end} block`)
  writeFileSync(path, `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`)
  console.log(`${page}: ${name} table written`)
}
