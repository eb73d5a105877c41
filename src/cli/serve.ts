/**
 * `sendbox serve`: the request log, the server (one thread or two), what it prints when it is
 * up, the terminal UI on a TTY, and a clean stop on SIGINT/SIGTERM.
 */
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
// Ink's own CI test: where it is true Ink draws nothing live, so the CLI logs lines instead.
import isInCi from 'is-in-ci'
import { warmHtmlTools } from '../domain/extract.js'
import { displayKey, PLAN_NAMES } from '../domain/plans.js'
import type { Sandbox } from '../index.js'
import { startServer, type RequestLog, type RunningServer } from '../transports/http-server.js'
import { startThreadedServer, type RunningTransport } from '../transports/threaded-server.js'
import { VERSION } from '../version.js'
import type { CliSettings } from './options.js'
import { serverOptionsOf } from './plumbing.js'

/** Where the CLI writes, and the environment it reads. */
export interface CliIo {
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
  env: NodeJS.ProcessEnv
}

/**
 * The threaded transport's worker: in the bundled CLI, the worker's own bundle beside it
 * (scripts/bundle.mjs writes dist/bin/sendbox-http-worker.mjs); unbundled, undefined (the
 * transport finds threaded-worker.js beside itself).
 */
function workerBundleUrl(): URL | undefined {
  const bundled = typeof __filename === 'string' && __filename.endsWith('sendbox.cjs')
  return bundled ? pathToFileURL(join(dirname(__filename), 'sendbox-http-worker.mjs')) : undefined
}

/** Serves the sandbox until a signal: resolves once it listens, or with exit code 1 when it cannot. */
export async function serve(
  settings: CliSettings,
  sandbox: Sandbox,
  io: CliIo,
  generatedAdminToken: boolean,
): Promise<number | RunningServer | RunningTransport> {
  // The terminal UI takes the screen only on a TTY; `--no-ui` or a pipe keeps one log line per request.
  // Ink draws nothing live when CI is set (is-in-ci): a CI job on a TTY gets log lines instead of a blank screen.
  const useUi = settings.ui && io.stdout.isTTY === true && !isInCi
  const log = requestLog(settings, io, !useUi)
  // A promise nobody awaited failing (a sendbox bug) is reported, not fatal: the request it
  // belonged to has its answer (500 from the handlers' catch), the others go on.
  process.on('unhandledRejection', (reason) => {
    io.stderr.write(
      `[sendbox] unexpected error (unhandled rejection): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`,
    )
  })
  const running = await listen(settings, sandbox, io, log.entry)
  if (typeof running === 'number') return running
  // The bundled CLI's loader (scripts/cli-loader.mjs) sets its V8 memory flags after start-up:
  // set earlier, they made Node compile its built-in modules without their code cache.
  const started = (globalThis as { __sendboxStarted?: () => void }).__sendboxStarted
  if (started) sandbox.ready.then(started, started)
  warn(settings, sandbox, io, generatedAdminToken)
  const apiUrl = `${running.url}/v1`
  if (!useUi) announce(settings, sandbox, io, running.url, apiUrl)
  const shutdown = stopOnSignals(running, sandbox, log.flush)
  warmHtmlToolsSoon()
  if (useUi) {
    // Loaded only here: the headless path never loads ink or react. React's development build
    // (NODE_ENV unset) renders ~20% slower and holds ~50 MB more with a full outbox.
    process.env.NODE_ENV ??= 'production'
    const { renderUi } = await import('../ui/terminal/render.js')
    renderUi({ sandbox, apiUrl, onQuit: shutdown, stdout: io.stdout, stderr: io.stderr })
  }
  return running
}

/** How long after the server listens the HTML tools are loaded and compiled (see {@link warmHtmlToolsSoon}). */
export const HTML_TOOLS_WARM_DELAY_MS = 100

/**
 * Loads and compiles the HTML tools (html-to-text, htmlparser2: ~20 ms of the main thread) a moment
 * after the server listens, so that the first email need not wait for them. Not in the turn it
 * starts listening: a client polling for the server to be up (a test's setup, a container's
 * health check) then had its first answer held for those ~20 ms (docs/decisions/warm-html-tools-later.md).
 * An email sent before then loads them itself. The timer does not hold the process open.
 */
export function warmHtmlToolsSoon(warm: () => Promise<void> = warmHtmlTools): NodeJS.Timeout {
  return setTimeout(() => void warm(), HTML_TOOLS_WARM_DELAY_MS).unref()
}

/**
 * One line per request without the terminal UI (text, or JSON), written once per turn of the
 * event loop, not once per request: under load a write per request (a syscall each; synchronous
 * to a file) was ~5 % of the server's CPU.
 */
function requestLog(
  settings: CliSettings,
  io: CliIo,
  enabled: boolean,
): { entry: ((entry: RequestLog) => void) | undefined; flush: () => void } {
  let logging = enabled
  // The log's reader going away (`sendbox | head`, a parent that closed the pipe) must not take
  // the server down with an EPIPE: stop logging, keep serving.
  io.stdout.on('error', () => {
    logging = false
  })
  let lines = ''
  const flush = () => {
    const text = lines
    lines = ''
    if (logging && text !== '') io.stdout.write(text)
  }
  const entry = (e: RequestLog) => {
    if (!logging) return
    if (lines === '') setImmediate(flush)
    lines +=
      settings.logFormat === 'json'
        ? `{"time":"${new Date().toISOString()}","method":${JSON.stringify(e.method)},"path":${JSON.stringify(e.path)},"status":${e.status},"ms":${Number.isFinite(e.ms) ? tenths(e.ms) : 0}}\n`
        : `${e.method} ${e.path} ${e.status} ${tenths(e.ms)}ms\n`
    if (lines.length >= 64 * 1024) flush()
  }
  return { entry: enabled ? entry : undefined, flush }
}

/** Starts the server, or says in one line why it cannot (exit code 1). */
async function listen(
  settings: CliSettings,
  sandbox: Sandbox,
  io: CliIo,
  onRequest: ((entry: RequestLog) => void) | undefined,
): Promise<RunningServer | RunningTransport | number> {
  try {
    const serverOptions = { ...serverOptionsOf(settings), onRequest }
    return settings.threads > 1
      ? await startThreadedServer(sandbox, { ...serverOptions, workerUrl: workerBundleUrl() })
      : await startServer(sandbox, serverOptions)
  } catch (error) {
    const err = error as NodeJS.ErrnoException
    const reason =
      err.code === 'EADDRINUSE'
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
}

/** What stderr must say at start: an open CORS grant, a non-loopback bind, team tokens, a generated webhook secret. */
function warn(settings: CliSettings, sandbox: Sandbox, io: CliIo, generatedAdminToken: boolean): void {
  const isLoopback = isLoopbackHost(settings.host)
  if (settings.corsOrigins.includes('*')) {
    io.stderr.write(
      'sendbox: warning: --cors-origin * lets any web page you visit read and change this sandbox (outbox, journal, faults); name the origins you need instead\n',
    )
  }
  if (!isLoopback) {
    io.stderr.write(
      `sendbox: warning: listening on ${settings.host}, reachable from other machines; /__sandbox controls need the admin token ${settings.adminToken}\n`,
    )
  }
  if (settings.teamTokens.length > 0) {
    io.stderr.write(
      `sendbox: team tokens ${settings.teamTokens.map((t) => `${t.name} (${t.accounts.join(', ')})`).join('; ')} open /__sandbox for their accounts only${isLoopback && generatedAdminToken ? `; every account needs the admin token ${settings.adminToken}` : ''}\n`,
    )
  }
  if (sandbox.webhooks && settings.webhookSecret === undefined) {
    // Printed once, on stderr (not in the request log), so the app under test can verify signatures.
    io.stderr.write(
      `sendbox: webhooks to ${settings.webhookUrl} are signed with the generated secret ${sandbox.webhooks.secret} (pass --webhook-secret to choose one)\n`,
    )
  }
}

/** Without the terminal UI: where the API and the inbox are (one JSON line with --log-format json). */
function announce(settings: CliSettings, sandbox: Sandbox, io: CliIo, url: string, apiUrl: string): void {
  if (settings.logFormat === 'json') {
    io.stdout.write(
      `${JSON.stringify({ time: new Date().toISOString(), event: 'listening', version: VERSION, api: apiUrl, inbox: `${url}/__sandbox/ui/`, data: sandbox.store?.path ?? null, messages: sandbox.outbox.size })}\n`,
    )
    return
  }
  io.stdout.write(
    `sendbox ${VERSION} listening on ${apiUrl} (keys: ${sandbox.keys.map((k) => `${displayKey(k.key)}=${PLAN_NAMES[k.plan]}`).join(', ')})\n`,
  )
  io.stdout.write(`web inbox: ${url}/__sandbox/ui/\n`)
  if (sandbox.store) io.stdout.write(`data: ${sandbox.store.path} (${sandbox.outbox.size} messages kept)\n`)
}

/** SIGINT/SIGTERM: requests in flight answered, the store written and closed, exit 0; a second signal leaves at once. */
function stopOnSignals(running: RunningServer | RunningTransport, sandbox: Sandbox, flushLog: () => void): () => void {
  let stopping = false
  const shutdown = () => {
    flushLog()
    if (stopping) process.exit(130) // a second signal: leave at once
    stopping = true
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
  return shutdown
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i.test(host)
}

/** `ms.toFixed(1)` for the log line, in integer arithmetic (V8's toFixed formats through a printf: ~0.5 % of a send's CPU). */
export function tenths(ms: number): string {
  if (!(ms >= 0 && ms < 1e9)) return ms.toFixed(1)
  const t = Math.round(ms * 10)
  return `${Math.floor(t / 10)}.${t % 10}`
}
