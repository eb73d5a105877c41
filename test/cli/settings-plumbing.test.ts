import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseCli, VALUED_SETTINGS, type CliSettings, type ValuedName } from '../../src/cli/options.js'
import { CONVERTED_OPTIONS, sandboxOptionsOf, serverOptionsOf } from '../../src/cli/plumbing.js'
import { sandboxFromSettings } from '../../src/cli/run.js'
import { settingKeyOf, SETTINGS, type Setting } from '../../src/contract/settings.js'
import { startServer } from '../../src/transports/http-server.js'

/**
 * Issue 34, item 3: a setting is its row. Every row with a value is given on the command line
 * with values other than its default (a whole number's bounds, 0 included) and must reach the
 * CLI's settings and the option it names; a row whose flag is accepted and dropped fails here.
 */
const dir = mkdtempSync(join(tmpdir(), 'sendbox-plumbing-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const templatesFile = join(dir, 'templates.json')
writeFileSync(
  templatesFile,
  JSON.stringify({ templates: [{ name: 'otp', language: 'en', body: 'Your code is {{1}}' }] }),
)
const fixturesFile = new URL('../../fixtures/sample.json', import.meta.url).pathname

/** Values a row's syntax needs; any other text or list row is given `sample`. */
const SAMPLES: Partial<Record<ValuedName, string[]>> = {
  host: ['127.0.0.2'],
  'api-key': ['k_sample:pro'],
  limit: ['pro=7'],
  fixtures: [fixturesFile],
  'webhook-url': ['http://127.0.0.1:9/hooks'],
  'webhook-secret': ['whsec_c2FtcGxlc2FtcGxlc2FtcGxl'],
  templates: [templatesFile],
  'admin-token': ['adm_sample_token'],
  'team-token': ['qa:tok_qa_12345678:acct_a'],
  'cors-origin': ['http://app.test:3000'],
  'allowed-host': ['box.lan'],
  'email-clients': ['gmail'],
  spamassassin: ['127.0.0.1:783'],
  data: [join(dir, 'sandbox.db')],
  config: [join(dir, 'other.config.json')],
  url: ['http://127.0.0.1:4010'],
}
writeFileSync(join(dir, 'other.config.json'), '{}')
/** Flags a row's option needs besides its own (a webhook's secret means nothing without its URL). */
const CONTEXT: Partial<Record<ValuedName, string[]>> = {
  'webhook-secret': ['--webhook-url', 'http://127.0.0.1:9/hooks'],
  'webhook-duplicates': ['--webhook-url', 'http://127.0.0.1:9/hooks'],
}

/** The command lines that set a row to something else than its default. */
function samplesOf(name: ValuedName): string[][] {
  const spec: Setting = SETTINGS[name]
  const flag = `--${name}`
  if (spec.kind === 'switch') return [[flag]]
  if (spec.kind === 'whole')
    return [...new Set(spec.range!)].filter((n) => String(n) !== spec.default).map((n) => [flag, String(n)])
  if (spec.kind === 'probability') return [[flag, '0.5']]
  if (spec.kind === 'choice') return spec.choices!.filter((c) => c !== spec.default).map((c) => [flag, c])
  return (SAMPLES[name] ?? ['sample']).map((value) => [flag, value])
}

const parse = (args: string[]): CliSettings => parseCli(args, {}, dir)
const field = (settings: CliSettings, name: ValuedName) => (settings as Record<string, unknown>)[settingKeyOf(name)]

describe('every row of the settings table reaches what it sets', () => {
  for (const name of VALUED_SETTINGS) {
    const spec: Setting = SETTINGS[name]
    for (const args of samplesOf(name)) {
      it(`${args.join(' ')}${spec.option ? ` → createSandbox's ${spec.option}` : spec.serverOption ? ` → startServer's ${spec.serverOption}` : " → the CLI's settings"}`, async () => {
        const context = CONTEXT[name] ?? []
        const base = parse(context)
        const settings = parse([...context, ...args])
        expect(field(settings, name), `--${name} is read into the CLI's settings`).not.toEqual(field(base, name))
        if (spec.kind === 'whole') expect(field(settings, name)).toBe(Number(args[1]))
        if (spec.option) {
          const [before, after] = [await sandboxOptionsOf(base), await sandboxOptionsOf(settings)] as Array<
            Record<string, unknown>
          >
          expect(after[spec.option], `--${name} reaches createSandbox's ${spec.option}`).not.toEqual(
            before[spec.option],
          )
          if (!CONVERTED_OPTIONS.includes(spec.option)) expect(after[spec.option]).toEqual(field(settings, name))
        }
        if (spec.serverOption) {
          const [before, after] = [serverOptionsOf(base), serverOptionsOf(settings)] as Array<Record<string, unknown>>
          expect(after[spec.serverOption], `--${name} reaches startServer's ${spec.serverOption}`).not.toEqual(
            before[spec.serverOption],
          )
          expect(after[spec.serverOption]).toEqual(field(settings, name))
        }
      })
    }
  }
})

describe('a running server answers with what the flags said', () => {
  it('--max-messages and --max-outbox-mb are the caps /__sandbox/health reports', async () => {
    const settings = parse(['--port', '0', '--max-messages', '3', '--max-outbox-mb', '1', '--subscribers', '0'])
    const sandbox = await sandboxFromSettings(settings)
    const server = await startServer(sandbox, serverOptionsOf(settings))
    try {
      const health = await (await fetch(`${server.url}/__sandbox/health`)).json()
      expect(health).toMatchObject({ max_messages: 3, max_outbox_bytes: 1024 * 1024 })
    } finally {
      await server.close()
      sandbox.dispose()
    }
  })
})
