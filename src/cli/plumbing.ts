/**
 * From the CLI's settings to `createSandbox`'s and `startServer`'s options, derived from the
 * settings table: a row's `option` (or `serverOption`) gets the row's value as it is, unless
 * `CONVERTED` says how to make it (a file loaded, MiB to bytes, three rows into one `webhook`).
 * A row whose value does not fit its option, and has no converter, is a compile error below
 * (`everyOptionRowFits`); test/cli/settings-plumbing.test.ts walks every row with a value.
 */
import type { SandboxOptions } from '../domain/sandbox.js'
import { defaultAccountFor } from '../domain/plans.js'
import type { ThreadedServerOptions } from '../transports/threaded-server.js'
import { SETTINGS, settingKeyOf, type Setting } from '../contract/settings.js'
import { VALUED_SETTINGS, type CliSettings, type SettingValue, type ValuedName } from './options.js'

/** The API's base URL for the host and port in the settings (IPv6 hosts bracketed). */
export function baseUrlOf(settings: Pick<CliSettings, 'host' | 'port'>): string {
  const shownHost = settings.host.includes(':') ? `[${settings.host}]` : settings.host
  return `http://${shownHost}:${settings.port}/v1`
}

type Converters<Options> = { [O in keyof Options]?: (settings: CliSettings) => Options[O] | Promise<Options[O]> }

/** The sandbox options that are not one row's value as it is. */
const CONVERTED = {
  // A key without an account of its own gets the sandbox's salted default (accountSalt).
  apiKeys: (s) =>
    s.apiKeys?.map((k) =>
      k.account === defaultAccountFor(k.key) ? `${k.key}:${k.plan}` : `${k.key}:${k.plan}:${k.account}`,
    ),
  fixtures: async (s) => (s.fixtures ? (await import('./fixtures-file.js')).loadFixtures(s.fixtures) : undefined),
  maxOutboxBytes: (s) => s.maxOutboxMb * 1024 * 1024,
  webhook: (s) =>
    s.webhookUrl ? { url: s.webhookUrl, secret: s.webhookSecret, duplicates: s.webhookDuplicates } : undefined,
  templates: async (s) =>
    s.templates === undefined ? undefined : (await import('./templates-file.js')).loadTemplatesFile(s.templates),
  // `keys` and `openapi` print and leave: they never take the store (a running sandbox holds its lock).
  data: (s) => (s.command === 'serve' || s.command === 'mcp' ? s.data : undefined),
} satisfies Converters<SandboxOptions>

/** The sandbox options made by a converter rather than passed as the row's value. */
export const CONVERTED_OPTIONS: readonly string[] = Object.keys(CONVERTED)

type RowOf<K extends 'option' | 'serverOption'> = {
  [N in ValuedName]: (typeof SETTINGS)[N] extends { [P in K]: string } ? N : never
}[ValuedName]
type OptionOfRow<N extends ValuedName, K extends 'option' | 'serverOption'> = (typeof SETTINGS)[N] extends {
  [P in K]: infer O
}
  ? O
  : never
/** The rows whose value does not fit the option they name and that no converter makes: none. */
type Unfit<K extends 'option' | 'serverOption', Options, Converted> = {
  [N in RowOf<K>]: OptionOfRow<N, K> extends keyof Converted
    ? never
    : OptionOfRow<N, K> extends keyof Options
      ? SettingValue<N> extends Options[OptionOfRow<N, K>]
        ? never
        : N
      : N
}[RowOf<K>]
type Fix =
  'the option is missing from SandboxOptions / ThreadedServerOptions, or takes another type: add it, or a converter in CONVERTED'
const everyOptionRowFits: [Unfit<'option', SandboxOptions, typeof CONVERTED>] extends [never]
  ? true
  : { unplumbed: Unfit<'option', SandboxOptions, typeof CONVERTED>; fix: Fix } = true
const everyServerRowFits: [Unfit<'serverOption', ThreadedServerOptions, object>] extends [never]
  ? true
  : { unplumbed: Unfit<'serverOption', ThreadedServerOptions, object>; fix: Fix } = true
void everyOptionRowFits
void everyServerRowFits

/** `createSandbox`'s options, as the settings say: every row that names an option. */
export async function sandboxOptionsOf(settings: CliSettings): Promise<SandboxOptions> {
  const options: Record<string, unknown> = { baseUrl: baseUrlOf(settings) }
  for (const name of VALUED_SETTINGS) {
    const option = (SETTINGS[name] as Setting).option
    if (option === undefined || option in options) continue
    options[option] =
      option in CONVERTED
        ? await CONVERTED[option as keyof typeof CONVERTED](settings)
        : (settings as Record<string, unknown>)[settingKeyOf(name)]
  }
  return options as SandboxOptions
}

/** `startServer`'s (and the threaded server's) options, as the settings say: every row that names a server option. */
export function serverOptionsOf(
  settings: CliSettings,
): Pick<
  ThreadedServerOptions,
  RowOf<'serverOption'> extends infer N extends ValuedName
    ? OptionOfRow<N, 'serverOption'> & keyof ThreadedServerOptions
    : never
> {
  const options: Record<string, unknown> = {}
  for (const name of VALUED_SETTINGS) {
    const option = (SETTINGS[name] as Setting).serverOption
    if (option !== undefined) options[option] = (settings as Record<string, unknown>)[settingKeyOf(name)]
  }
  return options
}
