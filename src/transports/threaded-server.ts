/*
 * The threaded transport: HTTP on a worker thread, the sandbox on the main thread.
 *
 * The worker (threaded-worker.ts) runs the single-thread server of http-server.ts unchanged:
 * it owns the socket, parses HTTP, applies every transport rule and writes the answers. The
 * main thread keeps the one sandbox and runs its dispatcher (the handlers' route table and guard
 * chain), exactly as the single-thread server does; state is never split (limits, accounts and the outbox stay in
 * one place). What crosses threads is the request (method, URL, headers, body bytes) and the
 * answer (status, headers, the guard's JSON text, or a body stream chunk by chunk).
 */
import { defaultOf } from '../contract/settings.js'
import type { AddressInfo } from 'node:net'
import { Worker } from 'node:worker_threads'
import { attachBufferedBody, bodyOf, pushAnswerHeaders, RawHeaders, type WireRequest } from '../http/body.js'
import { createDispatcher } from '../http/index.js'
import type { Sandbox } from '../index.js'
import type { TeamToken } from '../domain/team-tokens.js'
import { startServer, type RunningServer, type ServerOptions } from './http-server.js'
import type { FromWorker, HeaderPairs, ToWorker, WorkerSetup } from './threaded-protocol.js'

const NO_BODY = new Uint8Array(0)

export interface ThreadedServerOptions extends ServerOptions {
  /**
   * Threads serving HTTP: 1 is the single-thread server of http-server.ts; 2 or more puts HTTP
   * on one worker thread beside the main thread. Node 20 cannot share a listening socket between
   * threads (no SO_REUSEPORT before Node 22.12), and the main thread is the bottleneck anyway, so
   * more than 2 gives the same as 2. Default {@link DEFAULT_THREADS}.
   */
  threads?: number
  /**
   * Where the worker's code is: threaded-worker.js beside this file by default. A bundle that
   * inlines this module passes the worker's own bundle here.
   */
  workerUrl?: URL
}

/** A running server, single-thread or threaded: what the CLI and tests use of it. */
export interface RunningTransport {
  url: string
  port: number
  /** Threads serving HTTP (1: the single-thread server). */
  threads: number
  /** The node:http server, in this thread only when `threads` is 1. */
  server: RunningServer['server'] | undefined
  /** The bound address, as `server.address()` gives it. */
  address: AddressInfo
  /** Connections the server holds now, as `server.getConnections` counts them. */
  connections(): Promise<number>
  /** Stops accepting, answers what is in flight, closes keep-alive connections as they go idle. */
  close(): Promise<void>
}

/**
 * Threads by default: 1. On the 2-core machine it was built on, with the load generator on the
 * same cores, the second thread lost more to messaging and the worker's own Fetch objects than
 * it gained (docs/performance.md has the runs); `threads: 2` is there for machines with a core to
 * spare, measured before it is made a default.
 */
export const DEFAULT_THREADS = defaultOf('threads')

function startWorker(options: ThreadedServerOptions, setup: WorkerSetup): Worker {
  if (options.workerUrl) return new Worker(options.workerUrl, { workerData: setup })
  const here = import.meta.url
  if (here.endsWith('.ts')) {
    // Run from the TypeScript sources (the test suite): the worker registers tsx's loader first.
    const entry = new URL('./threaded-worker.ts', here).href
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
    return new Worker(boot, { eval: true, workerData: setup })
  }
  return new Worker(new URL('./threaded-worker.js', here), { workerData: setup })
}

/**
 * Starts the standalone server over a sandbox with HTTP on a worker thread (`threads` ≥ 2) or
 * on this thread (`threads` 1: exactly {@link startServer}). Same options and behaviour as
 * `startServer`; rejects with the OS error (its `code`, like `EADDRINUSE`) when the port is taken.
 *
 * @example
 * const running = await startThreadedServer(sandbox, { port: 4010, threads: 2 })
 * // … later
 * await running.close()
 */
export async function startThreadedServer(
  sandbox: Sandbox,
  options: ThreadedServerOptions = {},
): Promise<RunningTransport> {
  if ((options.threads ?? DEFAULT_THREADS) <= 1) return singleThread(sandbox, options)
  const worker = startWorker(options, workerSetup(sandbox, options))
  const requests = new WorkerRequests(createDispatcher(sandbox), (message, transfer) =>
    worker.postMessage(message, transfer),
  )
  const bridge = new WorkerBridge(worker, requests, options)
  let bound: { port: number; url: string; address: AddressInfo }
  try {
    bound = await bridge.listening
  } catch (error) {
    await worker.terminate()
    throw error
  }
  let closing: Promise<void> | undefined
  return {
    url: bound.url,
    port: bound.port,
    threads: 2,
    server: undefined,
    address: bound.address,
    connections: () => bridge.connections(),
    close: () =>
      (closing ??= new Promise<void>((done) => {
        bridge.onClosed = () => {
          requests.cancelAll()
          done()
        }
        worker.postMessage({ t: 'close' } satisfies ToWorker)
      }).then(async () => {
        await worker.terminate()
      })),
  }
}

/** `threads: 1`: the single-thread server, as a {@link RunningTransport}. */
async function singleThread(sandbox: Sandbox, options: ThreadedServerOptions): Promise<RunningTransport> {
  const running = await startServer(sandbox, options)
  return {
    url: running.url,
    port: running.port,
    threads: 1,
    server: running.server,
    address: running.server.address() as AddressInfo,
    connections: () => new Promise((resolve) => running.server.getConnections((_error, count) => resolve(count ?? 0))),
    close: () => running.close(),
  }
}

/** What the worker needs to apply the transport's rules without the sandbox: keys, tokens, hosts, timeouts. */
function workerSetup(sandbox: Sandbox, options: ThreadedServerOptions): WorkerSetup {
  return {
    baseUrl: sandbox.baseUrl,
    keys: sandbox.keys.map((k) => k.key),
    adminToken: (sandbox as { adminToken?: string }).adminToken,
    teamTokens: (sandbox as { teamTokens?: readonly TeamToken[] }).teamTokens ?? [],
    port: options.port,
    host: options.host,
    timeouts: options.timeouts,
    corsOrigins: (options as { corsOrigins?: readonly string[] }).corsOrigins,
    allowedHosts: (options as { allowedHosts?: readonly string[] }).allowedHosts,
    log: options.onRequest !== undefined,
  }
}

type Post = (message: ToWorker, transfer?: ArrayBuffer[]) => void

/** The sandbox's side of the worker's requests: dispatched here, answered as text or streamed a chunk per pull. */
class WorkerRequests {
  /** Aborts for requests in flight, by id (the client went away). */
  private readonly inFlight = new Map<number, AbortController>()
  /** Body streams being written, by id, and their requests' aborts. */
  private readonly readers = new Map<number, ReadableStreamDefaultReader<Uint8Array>>()
  private readonly streaming = new Map<number, AbortController>()

  constructor(
    private readonly dispatch: ReturnType<typeof createDispatcher>,
    private readonly post: Post,
  ) {}

  async answer(
    id: number,
    method: string,
    url: string,
    headers: HeaderPairs,
    body: Uint8Array | undefined,
  ): Promise<void> {
    const controller = new AbortController()
    this.inFlight.set(id, controller)
    try {
      // The worker built `url` from the same base URL, as the single-thread server does.
      const request: WireRequest = { method, url, headers: new RawHeaders(headers), signal: controller.signal }
      attachBufferedBody(request, body ?? NO_BODY)
      const answer = await this.dispatch(request, new URL(url))
      if (!answer) return this.post({ t: 'none', id })
      const pairs: HeaderPairs = []
      pushAnswerHeaders(answer, pairs)
      const payload = bodyOf(answer)
      if (typeof payload === 'string')
        return this.post({ t: 'answer', id, status: answer.status, headers: pairs, text: payload })
      this.readers.set(id, payload.getReader())
      // The request stays abortable while its body streams (see `pull`, which forgets it at the end).
      this.streaming.set(id, controller)
      this.post({ t: 'stream', id, status: answer.status, headers: pairs })
    } catch (error) {
      // The worker's transport decides, as the single-thread server does: a gone client is no bug;
      // otherwise 500 internal_error and its line on stderr (with this error's stack).
      const name = error instanceof Error ? error.name : 'Error'
      this.post({
        t: 'error',
        id,
        name,
        message: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      })
    } finally {
      this.inFlight.delete(id)
    }
  }

  /** The next chunk of a streamed body, or its end. */
  async pull(id: number): Promise<void> {
    const reader = this.readers.get(id)
    if (!reader) return this.post({ t: 'end', id })
    try {
      const { done, value } = await reader.read()
      if (done) {
        this.forget(id)
        return this.post({ t: 'end', id })
      }
      const chunk = Uint8Array.prototype.slice.call(value)
      this.post({ t: 'chunk', id, chunk }, [chunk.buffer as ArrayBuffer])
    } catch {
      this.forget(id)
      this.post({ t: 'end', id })
    }
  }

  /** The client went away: the request's signal aborts. */
  abort(id: number): void {
    ;(this.inFlight.get(id) ?? this.streaming.get(id))?.abort(
      new DOMException('The client closed the connection before the answer was sent.', 'AbortError'),
    )
  }

  /** The worker stopped writing a streamed body. */
  cancel(id: number): void {
    const reader = this.readers.get(id)
    this.forget(id)
    void reader?.cancel().catch(() => undefined)
  }

  cancelAll(): void {
    for (const reader of this.readers.values()) void reader.cancel().catch(() => undefined)
    this.readers.clear()
    this.streaming.clear()
  }

  private forget(id: number): void {
    this.readers.delete(id)
    this.streaming.delete(id)
  }
}

/** The worker's messages, routed: requests to {@link WorkerRequests}, its listening, counts, logs and close to their waiters. */
class WorkerBridge {
  readonly listening: Promise<{ port: number; url: string; address: AddressInfo }>
  /** Called once the worker has closed its server (or died). */
  onClosed: (() => void) | undefined
  private readonly counting = new Map<number, (count: number) => void>()
  private nextCount = 1

  constructor(
    private readonly worker: Worker,
    private readonly requests: WorkerRequests,
    private readonly options: ThreadedServerOptions,
  ) {
    this.listening = new Promise((resolve, reject) => {
      worker.on('message', (message: FromWorker) => this.route(message, resolve, reject))
      worker.once('error', (error) => {
        console.error('[sendbox] the HTTP worker thread failed:', error)
        reject(error)
        this.onClosed?.()
      })
      worker.once('exit', () => {
        reject(new Error('the HTTP worker thread exited before listening'))
        this.onClosed?.()
      })
    })
  }

  /** Connections the worker's server holds now. */
  connections(): Promise<number> {
    return new Promise<number>((resolve) => {
      const id = this.nextCount++
      this.counting.set(id, resolve)
      this.worker.postMessage({ t: 'connections', id } satisfies ToWorker)
    })
  }

  private route(
    message: FromWorker,
    listening: (bound: { port: number; url: string; address: AddressInfo }) => void,
    failed: (error: Error) => void,
  ): void {
    switch (message.t) {
      case 'request':
        return void this.requests.answer(message.id, message.method, message.url, message.headers, message.body)
      case 'abort':
        return this.requests.abort(message.id)
      case 'pull':
        return void this.requests.pull(message.id)
      case 'cancel':
        return this.requests.cancel(message.id)
      case 'log':
        return this.options.onRequest?.(message.entry)
      case 'console-error':
        return console.error(...message.args)
      case 'listening':
        return listening({ port: message.port, url: message.url, address: message.address as AddressInfo })
      case 'connections':
        this.counting.get(message.id)?.(message.count)
        this.counting.delete(message.id)
        return
      case 'failed':
        return failed(Object.assign(new Error(message.message), { code: message.code }))
      case 'closed':
        return this.onClosed?.()
    }
  }
}
