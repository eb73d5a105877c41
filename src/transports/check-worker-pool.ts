/**
 * Where the email HTML checks run on Node (issue 35): one worker thread (check-worker.ts), started
 * on the first check and shared by every sandbox of the process, unref'd so it never keeps a
 * process alive. Jobs are posted to it one after the other by the worker's own queue; the sandbox's
 * CheckReports bounds how many wait. When no worker can start (its file is missing, a platform
 * without threads) the checks run in-process, as before.
 *
 * Finding the worker's file: the bundled CLI (dist/bin/sendbox.cjs) has it beside itself as
 * sendbox-check-worker.mjs; the library bundle (dist/lib) and tsc's output have check-worker.js
 * beside this module; the TypeScript sources (the test suite) start it through tsx.
 */
import type { Worker } from 'node:worker_threads'
import type { HtmlChecker, HtmlCheckResult } from '../domain/checks/email/checks.js'

/** A job that takes longer than this fails (the worker is restarted): a parser gone wrong must not hold the queue. */
export const CHECK_TIMEOUT_MS = 60_000

type Answer = { id: number; result?: HtmlCheckResult; error?: string }
interface Pending {
  resolve(result: HtmlCheckResult): void
  reject(error: Error): void
  timer: ReturnType<typeof setTimeout>
}

/**
 * A Node built-in, without an import a browser bundle would try to resolve, and without a dynamic
 * import (which the CLI's code-cached script cannot run for a built-in).
 */
function builtin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  return typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule(id) as T) : undefined
}

function workerSource(): { url: URL; tsx: boolean } | undefined {
  const url = builtin<typeof import('node:url')>('node:url')
  if (typeof __filename === 'string' && __filename.endsWith('sendbox.cjs') && url)
    return { url: new URL('sendbox-check-worker.mjs', url.pathToFileURL(__filename)), tsx: false }
  const here = (import.meta as { url?: string }).url
  if (here === undefined) return undefined
  return here.endsWith('.ts')
    ? { url: new URL('./check-worker.ts', here), tsx: true }
    : { url: new URL('./check-worker.js', here), tsx: false }
}

class CheckWorker {
  private worker: Worker | undefined
  private starting: Promise<Worker | undefined> | undefined
  private next = 1
  private readonly pending = new Map<number, Pending>()

  private start(): Promise<Worker | undefined> {
    this.starting ??= (async () => {
      const source = workerSource()
      if (source === undefined) return undefined
      try {
        const threads = builtin<typeof import('node:worker_threads')>('node:worker_threads')
        if (threads === undefined) return undefined
        const { Worker } = threads
        const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source.url.href)}) })`
        const worker = source.tsx ? new Worker(boot, { eval: true }) : new Worker(source.url)
        worker.unref()
        worker.on('message', (answer: Answer) => this.answer(answer))
        worker.on('error', (error) => this.fail(error))
        worker.on('exit', () => this.fail(new Error('the check worker stopped')))
        this.worker = worker
        return worker
      } catch {
        return undefined
      }
    })()
    return this.starting
  }

  private answer(answer: Answer): void {
    const job = this.pending.get(answer.id)
    if (!job) return
    this.pending.delete(answer.id)
    clearTimeout(job.timer)
    // Idle, the worker must not keep the process alive; busy, it must (a one-shot command awaits it).
    if (this.pending.size === 0) this.worker?.unref()
    if (answer.result) job.resolve(answer.result)
    else job.reject(new Error(`email checks failed: ${answer.error}`))
  }

  /** The worker failed or stopped: its jobs fail, and the next check starts a new one. */
  private fail(error: Error): void {
    const worker = this.worker
    this.worker = undefined
    this.starting = undefined
    void worker?.terminate()
    for (const job of this.pending.values()) {
      clearTimeout(job.timer)
      job.reject(error)
    }
    this.pending.clear()
  }

  readonly check: HtmlChecker = async (html, emailClients) => {
    const worker = await this.start()
    // Loaded only here: caniemail's data stays out of `import('sendbox')` (issue 37).
    if (worker === undefined)
      return (await import('../domain/checks/email/checks.js')).inlineHtmlChecker(html, emailClients)
    const id = this.next++
    return new Promise<HtmlCheckResult>((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new Error(`email checks took over ${CHECK_TIMEOUT_MS / 1000} s`)),
        CHECK_TIMEOUT_MS,
      )
      timer.unref?.()
      this.pending.set(id, { resolve, reject, timer })
      worker.ref()
      worker.postMessage({ id, html, emailClients: [...emailClients] })
    })
  }
}

let shared: CheckWorker | undefined

/** The process's check worker, as an {@link HtmlChecker} (started on first use). */
export const workerHtmlChecker: HtmlChecker = (html, emailClients) =>
  (shared ??= new CheckWorker()).check(html, emailClients)
