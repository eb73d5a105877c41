import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { envOf, helpText, settingsTable } from '../../src/cli/options.js'
import { configFileSchema } from '../../src/cli/config-file.js'
import { SETTINGS, type Setting, type SettingName } from '../../src/contract/settings.js'

/**
 * One settings schema (src/contract/settings.ts) drives the parser, `--help`, the config file's
 * fields, the in-process defaults and the table of docs/settings.md: these checks fail when one of them
 * drifts from it.
 */
describe('settings: one schema for flags, env, config file, --help and docs/settings.md', () => {
  const page = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8')

  it('the table of docs/settings.md is the one generated from the schema (npm run docs:tables)', () => {
    const block = /<!-- settings:begin -->\n([\s\S]*?)\n<!-- settings:end -->/.exec(page)
    expect(block, 'docs/settings.md has its settings block').not.toBeNull()
    expect(block![1]).toBe(settingsTable())
  })

  it('every flag has its row, its env variable and its help line in --help', () => {
    const help = helpText()
    for (const name of Object.keys(SETTINGS) as SettingName[]) {
      const setting: Setting = SETTINGS[name]
      expect(help).toContain(`--${name}`)
      expect(help).toContain(setting.help)
      if (setting.commandLineOnly) continue
      expect(settingsTable()).toContain(`\`--${name}`)
      expect(help).toContain(`env ${envOf(name)}`)
    }
  })

  it('the config file accepts exactly the settings that have a file key', () => {
    const keys = Object.keys(configFileSchema.shape)
      .filter((k) => k !== '$schema')
      .sort()
    const table = settingsTable()
      .split('\n')
      .slice(2)
      .map((row) => row.split(' | ')[4])
      .filter((c) => c !== '')
      .map((c) => c.replace(/`/g, ''))
      .sort()
    expect(keys).toEqual(table)
    expect(keys).toContain('ui')
    expect(keys).toContain('apiKeys')
  })
})
