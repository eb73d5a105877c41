/**
 * Live link probing (issue 35, `?links=live`) in a worker thread of its own. msw's `setupServer`
 * patches this thread's `globalThis.fetch` and `node:http` (msw 3 down to the socket); a Worker
 * has its own module instances, untouched by it, so a live check reaches the real network even
 * from a test that runs msw. The worker's code is `probeLinksInWorker` below, sent as source
 * (`eval`): no file to find beside a bundle. node:worker_threads is reached through
 * `process.getBuiltinModule` when called, so this module imports nothing at load time.
 */

export interface ProbeJob {
  urls: string[]
  timeoutMs: number
  concurrency: number
  maxRedirects: number
}

export interface ProbeResult {
  url: string
  /** The final status (absent when unreachable). */
  status?: number
  /** Where the redirects ended, when there were any. */
  finalUrl?: string
  redirects: number
  /** Why it failed without a status: `timeout`, `loop`, `redirects`, or the network's code (`ECONNREFUSED`, `ENOTFOUND`…). */
  error?: string
  /** The redirect loop, when `error` is `loop`. */
  loop?: string[]
}

type WorkerThreads = typeof import('node:worker_threads')
type Http = typeof import('node:http')
type Load = (id: string) => unknown

/**
 * The worker's whole program (sent as source: it must use nothing but its parameters and globals).
 * Each URL: HEAD, then GET when HEAD is refused (405, 501, or the connection dropped); redirects
 * followed up to `maxRedirects`, a loop named; one deadline per URL across all of it; each answer
 * destroyed at its headers (no body is read); no cookies or credentials sent; `agent: false` (a
 * socket per request, closed after).
 */
export function probeLinksInWorker(threads: WorkerThreads, load: Load): void {
  const http = load('node:http') as Http
  const https = load('node:https') as Http
  const job = threads.workerData as ProbeJob
  type Answer = { status: number; location: string | undefined } | { error: string }
  const request = (url: URL, method: string, deadline: number) =>
    new Promise<Answer>((resolve) => {
      const client = url.protocol === 'https:' ? https : http
      let done = false
      const finish = (answer: Answer) => {
        if (done) return
        done = true
        clearTimeout(timer)
        req.destroy()
        resolve(answer)
      }
      const headers = { 'user-agent': 'sendbox-link-check', accept: '*/*', connection: 'close' }
      const req = client.request(url, { method, agent: false, headers }, (res) => {
        const location = res.headers.location
        res.destroy()
        finish({ status: res.statusCode ?? 0, location: typeof location === 'string' ? location : undefined })
      })
      const timer = setTimeout(() => finish({ error: 'timeout' }), Math.max(0, deadline - Date.now()))
      req.on('error', (error: Error & { code?: string }) => finish({ error: error.code ?? error.message }))
      req.end()
    })
  const probe = async (original: string) => {
    const deadline = Date.now() + job.timeoutMs
    let url = new URL(original)
    url.username = ''
    url.password = ''
    const seen = [url.href]
    for (let redirects = 0; ; redirects++) {
      let answer = await request(url, 'HEAD', deadline)
      const refused =
        'status' in answer
          ? answer.status === 405 || answer.status === 501
          : answer.error === 'ECONNRESET' || answer.error === 'socket hang up'
      if (refused) answer = await request(url, 'GET', deadline)
      const finalUrl = redirects > 0 ? url.href : undefined
      if ('error' in answer) return { url: original, redirects, error: answer.error, finalUrl }
      const next =
        answer.status >= 300 && answer.status < 400 && answer.location ? new URL(answer.location, url) : undefined
      if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:'))
        return { url: original, status: answer.status, redirects, finalUrl }
      if (seen.includes(next.href))
        return {
          url: original,
          status: answer.status,
          redirects: redirects + 1,
          error: 'loop',
          loop: [...seen.slice(seen.indexOf(next.href)), next.href],
        }
      if (redirects + 1 > job.maxRedirects)
        return {
          url: original,
          status: answer.status,
          redirects: redirects + 1,
          error: 'redirects',
          finalUrl: next.href,
        }
      seen.push(next.href)
      url = next
    }
  }
  const results: ProbeResult[] = new Array(job.urls.length)
  let next = 0
  const lane = async () => {
    while (next < job.urls.length) {
      const index = next++
      results[index] = await probe(job.urls[index]!).catch((error: Error) => ({
        url: job.urls[index]!,
        redirects: 0,
        error: error.message,
      }))
    }
  }
  void Promise.all(Array.from({ length: Math.min(job.concurrency, job.urls.length) }, lane)).then(() =>
    threads.parentPort!.postMessage(results),
  )
}

function builtin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  return typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule(id) as T) : undefined
}

/** Probes the URLs in a Worker; an abort (or the overall guard) terminates it. */
export function probeLinks(job: ProbeJob, signal?: AbortSignal): Promise<ProbeResult[]> {
  if (job.urls.length === 0) return Promise.resolve([])
  const threads = builtin<WorkerThreads>('node:worker_threads')
  if (!threads)
    return Promise.resolve(
      job.urls.map((url) => ({ url, redirects: 0, error: 'live link checks need Node.js worker threads' })),
    )
  // `__name`: the helper a transpiler keeping function names (tsx, vitest) wraps arrows in.
  const source = `const __name = (fn) => fn;\n(${probeLinksInWorker.toString()})(require('node:worker_threads'), require)`
  // No inherited --import/--require (a test runner's msw setup stays out of the worker).
  const worker = new threads.Worker(source, {
    eval: true,
    workerData: job,
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: 64 },
  })
  // Each lane handles its URLs one after another, each at most timeoutMs (HEAD and GET share it).
  const guardMs = Math.ceil(job.urls.length / job.concurrency) * job.timeoutMs + 5_000
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(guard)
      signal?.removeEventListener('abort', abort)
      void worker.terminate()
      outcome()
    }
    const abort = () => settle(() => reject(signal?.reason ?? new Error('aborted')))
    const guard = setTimeout(
      () => settle(() => reject(new Error(`the link checks did not finish within ${guardMs} ms`))),
      guardMs,
    )
    signal?.addEventListener('abort', abort, { once: true })
    if (signal?.aborted) abort()
    worker.once('message', (results: ProbeResult[]) => settle(() => resolve(results)))
    worker.on('error', (error) => settle(() => reject(error)))
    worker.once('exit', (code) => settle(() => reject(new Error(`the link checker stopped (exit ${code})`))))
  })
}
