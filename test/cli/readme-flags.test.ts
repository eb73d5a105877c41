import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { envOf, FLAGS } from '../../src/cli/options.js'

/**
 * The README's "Command line" table and the flags `sendbox --help` prints come from one place:
 * FLAGS. Each flag (but --help and --version) has a row naming it and its environment variable.
 */
describe('README flag table', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const table = readme.slice(readme.indexOf('| flag | default | env |'))
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2)

  it('has one row per flag, with the variable the flag reads', () => {
    const missing: string[] = []
    for (const name of Object.keys(FLAGS)) {
      if (name === 'help' || name === 'version') continue
      const row = rows.find((r) => r.startsWith(`| \`--${name} `) || r.startsWith(`| \`--${name}\``))
      if (!row || !row.includes(`\`${envOf(name)}\``)) missing.push(`--${name} (${envOf(name)})`)
    }
    expect(missing).toEqual([])
    expect(rows.length).toBe(Object.keys(FLAGS).length - 2)
  })
})
