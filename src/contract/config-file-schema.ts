/**
 * The schema of `sendbox.config.json`, read off the settings table (settings.ts): every row with
 * a config-file form is a field of it.
 */
import { z } from 'zod'
import { wholeSchema, type Setting } from './setting-kinds.js'
import { configKeyOf, SETTINGS, type ConfigKey, type SettingName } from './settings.js'

type ConfigShape = {
  [
    N in SettingName as (typeof SETTINGS)[N] extends
      { config: z.ZodType } | { kind: 'whole' } | { kind: 'switch'; commandLineOnly?: undefined }
      ? ConfigKey<N>
      : never
  ]: z.ZodOptional<
    (typeof SETTINGS)[N] extends { config: infer S extends z.ZodType }
      ? S
      : (typeof SETTINGS)[N] extends { kind: 'whole' }
        ? ReturnType<typeof wholeSchema>
        : z.ZodBoolean
  >
}

/**
 * The config file's fields, from the table: a whole number gets its range, a switch is a boolean
 * (`"ui": false` for `--no-ui`), the others their own schema; settings without one
 * (`--config`, `--url`, `--help`) are not in the file.
 */
function configShape(): ConfigShape {
  const shape: Record<string, z.ZodType> = {}
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const setting: Setting = SETTINGS[name]
    if (setting.config) shape[configKeyOf(name)] = setting.config.optional()
    else if (setting.kind === 'whole' && setting.range) shape[configKeyOf(name)] = wholeSchema(setting.range).optional()
    else if (setting.kind === 'switch' && !setting.commandLineOnly)
      shape[configKeyOf(name)] = z.boolean({ error: 'must be true or false' }).optional()
  }
  return shape as ConfigShape
}

/** The name of the file `sendbox` reads from the working directory when no `--config` is given. */
export const CONFIG_FILE_NAME = 'sendbox.config.json'

/**
 * `sendbox.config.json`. Keys are the flags' names in camelCase; every field is optional and a
 * flag or an environment variable overrides it. Unknown fields are refused, so a typo
 * (`"prot": 4011`) is an error instead of a silent default.
 */
export const configFileSchema = z.strictObject({ $schema: z.string().optional(), ...configShape() }).meta({
  id: 'SendboxConfig',
  description: 'sendbox.config.json: settings for the `sendbox` CLI. Flags and environment variables override it.',
})
