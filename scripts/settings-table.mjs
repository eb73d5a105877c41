#!/usr/bin/env node
// Writes the README's settings table from the settings schema (src/contract/settings.ts), between
// `<!-- settings:begin -->` and `<!-- settings:end -->`. test/cli/readme-flags.test.ts fails when
// the README's table differs from what this writes. Run after `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs'
import { settingsTable } from '../dist/src/cli/options.js'

const path = new URL('../README.md', import.meta.url)
const readme = readFileSync(path, 'utf8')
const begin = '<!-- settings:begin -->'
const end = '<!-- settings:end -->'
const from = readme.indexOf(begin)
const to = readme.indexOf(end)
if (from < 0 || to < from) throw new Error(`README.md has no ${begin} … ${end} block`)
writeFileSync(path, `${readme.slice(0, from + begin.length)}\n${settingsTable()}\n${readme.slice(to)}`)
console.log('README.md: settings table written')
