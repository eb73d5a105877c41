import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RULES } from './rules.js'

describe('the rules table', () => {
  it('docs/checks.md lists every rule with its severity and category', () => {
    const doc = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8')
    for (const [id, rule] of Object.entries(RULES))
      expect(doc).toContain(`| \`${id}\` | ${rule.severity} | ${rule.category} |`)
  })
})
