import { createSandbox, type Sandbox } from '../index.js'
import { baseUrlOf, sandboxOptionsOf } from './plumbing.js'
import { defaultAccountFor } from '../domain/plans.js'
import type { RunningServer } from '../transports/http-server.js'
import type { RunningTransport } from '../transports/threaded-server.js'
import { isLoopbackHost, serve, type CliIo } from './serve.js'

export { isLoopbackHost, tenths } from './serve.js'

import { helpText, parseCli, UsageError, type CliSettings } from './options.js'
import { VERSION } from '../version.js'
import { newId } from '../domain/random.js'
import { buildOpenApiDocument } from '../http/openapi-document.js'
import { runMcp } from './mcp-command.js'

export { baseUrlOf }

/** Builds the sandbox the CLI's settings describe. */
export async function sandboxFromSettings(settings: CliSettings): Promise<Sandbox> {
  const options = await sandboxOptionsOf(settings)
  // A store is read at start (100,000 messages: seconds and hundreds of MB): the bundled CLI's
  // loader sets its V8 memory flags now instead of after start-up, so the restore's garbage is
  // collected at 1.5× what is live rather than V8's default growth (issue 37).
  if (options.data !== undefined) (globalThis as { __sendboxMemoryFlags?: () => void }).__sendboxMemoryFlags?.()
  const sandbox = createSandbox(options)
  if (options.data !== undefined) {
    // A store that cannot be read fails the start, with one line, not the first request.
    try {
      await sandbox.ready
    } catch (error) {
      sandbox.dispose()
      throw error
    }
  }
  return sandbox
}

function keysTable(sandbox: Sandbox): string {
  const usage = sandbox.keyUsage()
  // An account the key was not configured with is made from the key and this run's salt (a store keeps the salt).
  const made = usage.filter((k) => k.account === defaultAccountFor(k.key, sandbox.accountSalt))
  const rows = usage.map((k) => [
    k.key,
    k.planName,
    `${k.limit.toLocaleString('en-US')}/min`,
    made.includes(k) ? `${k.account} *` : k.account,
  ])
  const header = ['KEY', 'PLAN', 'LIMIT', 'ACCOUNT']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const table = [header, ...rows]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
  if (made.length === 0) return table
  // `keys` never opens the store, so an id a --data store keeps is not the one printed here.
  return `${table}\n* account id made for this run: each start (and this command) makes another, unless --data keeps the server's (GET /__sandbox/keys shows it). Name accounts with --api-key KEY:PLAN:ACCOUNT to fix them.`
}

/**
 * The whole `sendbox` command. Returns the exit code for one-shot commands; for `serve` it
 * resolves once the server is up and installs signal handlers that shut it down.
 */
export async function runCli(
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number | RunningServer | RunningTransport> {
  if (argv[0] === 'check') return (await import('./check-command.js')).runCheck(argv.slice(1), io)
  let settings: CliSettings
  try {
    settings = parseCli(argv, io.env)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`sendbox: ${error.message}\n`)
      return 2
    }
    throw error
  }
  const printed = printOnly(settings, io)
  if (printed !== undefined) return printed
  if (settings.command === 'mcp') {
    const mcpSettings = settings
    return runMcp(mcpSettings, () => sandboxFromSettings(mcpSettings), io, isLoopbackHost)
  }
  const generatedAdminToken =
    (!isLoopbackHost(settings.host) || settings.teamTokens.length > 0) &&
    settings.adminToken === undefined &&
    settings.command === 'serve'
  if (generatedAdminToken) {
    // Off loopback the controls (reset, faults, outbox) must not be open to the network; with team
    // tokens, a request without a token must not see every account.
    settings = { ...settings, adminToken: newId('adm_') }
  }
  let sandbox: Sandbox
  try {
    sandbox = await sandboxFromSettings({
      ...settings,
      subscribers: settings.command === 'keys' ? 0 : settings.subscribers,
    })
  } catch (error) {
    io.stderr.write(`sendbox: ${(error as Error).message}\n`)
    return 2
  }
  if (settings.command === 'keys') {
    io.stdout.write(`${keysTable(sandbox)}\n${settings.configFile ? `(settings from ${settings.configFile})\n` : ''}`)
    sandbox.dispose()
    return 0
  }
  return serve(settings, sandbox, io, generatedAdminToken)
}

/** `--help`, `--version` and `openapi`: printed, exit code 0; undefined for the other commands. */
function printOnly(settings: CliSettings, io: CliIo): number | undefined {
  // `sendbox openapi | head`: the reader leaving early is no error of ours (no EPIPE stack trace).
  if (settings.command === 'help' || settings.command === 'version' || settings.command === 'openapi')
    io.stdout.on('error', () => {})
  if (settings.command === 'help') io.stdout.write(`${helpText()}\n`)
  else if (settings.command === 'version') io.stdout.write(`${VERSION}\n`)
  else if (settings.command === 'openapi')
    io.stdout.write(`${JSON.stringify(buildOpenApiDocument({ baseUrl: baseUrlOf(settings) }), null, 2)}\n`)
  else return undefined
  return 0
}
