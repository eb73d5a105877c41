import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createSandbox, type Sandbox, type SandboxOptions } from '../index.js'
import { defaultAccountFor, displayKey, PLAN_NAMES } from '../domain/plans.js'
import { startServer, type RunningServer } from '../server/http-server.js'
import { startThreadedServer, type RunningTransport } from '../server/threaded-server.js'

/**
 * The threaded transport's worker: in the bundled CLI, the worker's own bundle beside it
 * (scripts/bundle.mjs writes dist/bin/sendbox-http-worker.mjs); unbundled, undefined (the
 * transport finds threaded-worker.js beside itself).
 */
function workerBundleUrl(): URL | undefined {
  const bundled = typeof __filename === 'string' && __filename.endsWith('sendbox.cjs')
  return bundled ? pathToFileURL(join(dirname(__filename), 'sendbox-http-worker.mjs')) : undefined
}
import { helpText, parseCli, UsageError, type CliSettings } from './options.js'
import { VERSION } from '../version.js'
import { newId } from '../domain/random.js'
import { buildOpenApiDocument } from '../openapi.js'
import { runMcp } from './mcp-command.js'
// Ink's own CI test: where it is true Ink draws nothing live, so the CLI logs lines instead.
import isInCi from 'is-in-ci'

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i.test(host)
}

/** The API's base URL for the host and port in the settings (IPv6 hosts bracketed). */
export function baseUrlOf(settings: Pick<CliSettings, 'host' | 'port'>): string {
  const shownHost = settings.host.includes(':') ? `[${settings.host}]` : settings.host
  return `http://${shownHost}:${settings.port}/v1`
}

/** Builds the sandbox the CLI's settings describe. */
export async function sandboxFromSettings(settings: CliSettings): Promise<Sandbox> {
  const fixtures = settings.fixtures ? (await import('../../fixtures/load.js')).loadFixtures(settings.fixtures) : undefined
  const options: SandboxOptions = {
    baseUrl: baseUrlOf(settings),
    // A key without an account of its own gets the sandbox's salted default (accountSalt).
    apiKeys: settings.apiKeys?.map((k) => (k.account === defaultAccountFor(k.key) ? `${k.key}:${k.plan}` : `${k.key}:${k.plan}:${k.account}`)),
    limits: settings.limits,
    seed: settings.seed,
    subscribers: settings.subscribers,
    fixtures,
    deliveryMs: settings.deliveryMs,
    maxMessages: settings.maxMessages,
    maxRequests: settings.maxRequests,
    maxOutboxBytes: settings.maxOutboxMb * 1024 * 1024,
    maxWaiters: settings.maxWaiters,
    maxEventClients: settings.maxEventClients,
    webhook: settings.webhookUrl ? { url: settings.webhookUrl, secret: settings.webhookSecret, duplicates: settings.webhookDuplicates } : undefined,
    templates: settings.templates === undefined ? undefined : (await import('./templates-file.js')).loadTemplatesFile(settings.templates),
    adminToken: settings.adminToken,
    teamTokens: settings.teamTokens,
    // `keys` and `openapi` print and leave: they never take the store (a running sandbox holds its lock).
    data: settings.command === 'serve' || settings.command === 'mcp' ? settings.data : undefined,
  }
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
  const rows = sandbox.keyUsage().map((k) => [k.key, k.planName, `${k.limit.toLocaleString('en-US')}/min`, k.account])
  const header = ['KEY', 'PLAN', 'LIMIT', 'ACCOUNT']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n')
}

/**
 * The whole `sendbox` command. Returns the exit code for one-shot commands; for `serve` it
 * resolves once the server is up and installs signal handlers that shut it down.
 */
export async function runCli(argv: string[], io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number | RunningServer | RunningTransport> {
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
  if (settings.command === 'help') {
    io.stdout.write(`${helpText()}\n`)
    return 0
  }
  if (settings.command === 'version') {
    io.stdout.write(`${VERSION}\n`)
    return 0
  }
  if (settings.command === 'openapi') {
    io.stdout.write(`${JSON.stringify(buildOpenApiDocument({ baseUrl: baseUrlOf(settings) }), null, 2)}\n`)
    return 0
  }
  if (settings.command === 'mcp') {
    const mcpSettings = settings
    return runMcp(mcpSettings, () => sandboxFromSettings(mcpSettings), io, isLoopbackHost)
  }
  const isLoopback = isLoopbackHost(settings.host)
  const generatedAdminToken = (!isLoopback || settings.teamTokens.length > 0) && settings.adminToken === undefined && settings.command === 'serve'
  if (generatedAdminToken) {
    // Off loopback the controls (reset, faults, outbox) must not be open to the network; with team
    // tokens, a request without a token must not see every account.
    settings = { ...settings, adminToken: newId('adm_') }
  }
  let sandbox: Sandbox
  try {
    sandbox = await sandboxFromSettings({ ...settings, subscribers: settings.command === 'keys' ? 0 : settings.subscribers })
  } catch (error) {
    io.stderr.write(`sendbox: ${(error as Error).message}\n`)
    return 2
  }
  if (settings.command === 'keys') {
    io.stdout.write(`${keysTable(sandbox)}\n${settings.configFile ? `(settings from ${settings.configFile})\n` : ''}`)
    sandbox.dispose()
    return 0
  }
  // The terminal UI takes the screen only on a TTY; `--no-ui` or a pipe keeps one log line per request.
  // Ink draws nothing live when CI is set (is-in-ci): a CI job on a TTY gets log lines instead of a blank screen.
  const useUi = settings.ui && io.stdout.isTTY === true && !isInCi
  let logging = !useUi
  // The log's reader going away (`sendbox | head`, a parent that closed the pipe) must not take
  // the server down with an EPIPE: stop logging, keep serving.
  io.stdout.on('error', () => {
    logging = false
  })
  // Lines are written once per turn of the event loop, not once per request: under load a write
  // per request (a syscall each; synchronous to a file) was ~5 % of the server's CPU.
  let lines = ''
  const flushLog = () => {
    const text = lines
    lines = ''
    if (logging && text !== '') io.stdout.write(text)
  }
  const log = useUi ? undefined : (entry: { method: string; path: string; status: number; ms: number }) => {
    if (!logging) return
    if (lines === '') setImmediate(flushLog)
    lines += settings.logFormat === 'json'
      ? `{"time":"${new Date().toISOString()}","method":${JSON.stringify(entry.method)},"path":${JSON.stringify(entry.path)},"status":${entry.status},"ms":${Number.isFinite(entry.ms) ? tenths(entry.ms) : 0}}\n`
      : `${entry.method} ${entry.path} ${entry.status} ${tenths(entry.ms)}ms\n`
    if (lines.length >= 64 * 1024) flushLog()
  }
  // A promise nobody awaited failing (a sendbox bug) is reported, not fatal: the request it
  // belonged to has its answer (500 from the handlers' catch), the others go on.
  process.on('unhandledRejection', (reason) => {
    io.stderr.write(`[sendbox] unexpected error (unhandled rejection): ${reason instanceof Error ? reason.stack ?? reason.message : String(reason)}\n`)
  })
  let running: RunningServer | RunningTransport
  try {
    const serverOptions = { port: settings.port, host: settings.host, onRequest: log, corsOrigins: settings.corsOrigins, allowedHosts: settings.allowedHosts }
    running = settings.threads > 1
      ? await startThreadedServer(sandbox, { ...serverOptions, threads: settings.threads, workerUrl: workerBundleUrl() })
      : await startServer(sandbox, serverOptions)
  } catch (error) {
    const err = error as NodeJS.ErrnoException
    const reason = err.code === 'EADDRINUSE'
      ? `port ${settings.port} on ${settings.host} is already in use; stop the other process or pass --port`
      : err.code === 'EACCES'
        ? `no permission to listen on ${settings.host}:${settings.port}; use a port above 1023`
        : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
          ? `cannot bind to host "${settings.host}": no such local address`
          : `cannot start the server: ${err.message}`
    io.stderr.write(`sendbox: ${reason}\n`)
    sandbox.dispose()
    return 1
  }
  // The bundled CLI's loader (scripts/cli-loader.mjs) sets its V8 memory flags after start-up:
  // set earlier, they made Node compile its built-in modules without their code cache.
  const started = (globalThis as { __sendboxStarted?: () => void }).__sendboxStarted
  if (started) sandbox.ready.then(started, started)
  if (settings.corsOrigins.includes('*')) {
    io.stderr.write('sendbox: warning: --cors-origin * lets any web page you visit read and change this sandbox (outbox, journal, faults); name the origins you need instead\n')
  }
  if (!isLoopback) {
    io.stderr.write(`sendbox: warning: listening on ${settings.host}, reachable from other machines; /__sandbox controls need the admin token ${settings.adminToken}\n`)
  }
  if (settings.teamTokens.length > 0) {
    io.stderr.write(`sendbox: team tokens ${settings.teamTokens.map((t) => `${t.name} (${t.accounts.join(', ')})`).join('; ')} open /__sandbox for their accounts only${isLoopback && generatedAdminToken ? `; every account needs the admin token ${settings.adminToken}` : ''}\n`)
  }
  const apiUrl = `${running.url}/v1`
  if (sandbox.webhooks && settings.webhookSecret === undefined) {
    // Printed once, on stderr (not in the request log), so the app under test can verify signatures.
    io.stderr.write(`sendbox: webhooks to ${settings.webhookUrl} are signed with the generated secret ${sandbox.webhooks.secret} (pass --webhook-secret to choose one)\n`)
  }
  if (!useUi && settings.logFormat === 'json') {
    io.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), event: 'listening', version: VERSION, api: apiUrl, inbox: `${running.url}/__sandbox/ui/`, data: sandbox.store?.path ?? null, messages: sandbox.outbox.size })}\n`)
  } else if (!useUi) {
    io.stdout.write(`sendbox ${VERSION} listening on ${apiUrl} (keys: ${sandbox.keys.map((k) => `${displayKey(k.key)}=${PLAN_NAMES[k.plan]}`).join(', ')})\n`)
    io.stdout.write(`web inbox: ${running.url}/__sandbox/ui/\n`)
    if (sandbox.store) io.stdout.write(`data: ${sandbox.store.path} (${sandbox.outbox.size} messages kept)\n`)
  }
  let stopping = false
  const shutdown = () => {
    flushLog()
    if (stopping) process.exit(130) // a second signal: leave at once
    stopping = true
    // In-flight requests are answered first, then the store is written and closed (dispose).
    const force = setTimeout(() => {
      sandbox.dispose()
      process.exit(0)
    }, 5_000)
    force.unref()
    void running.close().then(() => {
      sandbox.dispose()
      flushLog()
      process.exit(0)
    })
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
  if (useUi) {
    // Loaded only here: the headless path never loads ink or react. React's development build
    // (NODE_ENV unset) renders ~20% slower and holds ~50 MB more with a full outbox.
    process.env.NODE_ENV ??= 'production'
    const { renderUi } = await import('../ui/render.js')
    renderUi({ sandbox, apiUrl, onQuit: shutdown, stdout: io.stdout, stderr: io.stderr })
  }
  return running
}

/** `ms.toFixed(1)` for the log line, in integer arithmetic (V8's toFixed formats through a printf: ~0.5 % of a send's CPU). */
export function tenths(ms: number): string {
  if (!(ms >= 0 && ms < 1e9)) return ms.toFixed(1)
  const t = Math.round(ms * 10)
  return `${Math.floor(t / 10)}.${t % 10}`
}
