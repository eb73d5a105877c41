#!/usr/bin/env node
// Writes the README's generated tables, each between its `<!-- NAME:begin -->` and
// `<!-- NAME:end -->` markers: the settings (src/contract/settings.ts, through the CLI's
// settingsTable) and the terminal UI's keys (src/ui/terminal/keymap.ts). Tests fail when the
// README's tables differ from what this writes (test/cli/readme-flags.test.ts,
// src/ui/terminal/keymap.test.ts). Run after `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs'
import { settingsTable } from '../dist/src/cli/options.js'
import { keysTable } from '../dist/src/ui/terminal/keymap.js'

const path = new URL('../README.md', import.meta.url)
let readme = readFileSync(path, 'utf8')
for (const [name, table] of [['settings', settingsTable()], ['keys', keysTable()]]) {
  const begin = `<!-- ${name}:begin -->`
  const end = `<!-- ${name}:end -->`
  const from = readme.indexOf(begin)
  const to = readme.indexOf(end)
  if (from < 0 || to < from) throw new Error(`README.md has no ${begin} … ${end} block`)
  readme = `${readme.slice(0, from + begin.length)}\n${table}\n${readme.slice(to)}`
}
writeFileSync(path, readme)
console.log('README.md: settings and keys tables written')
