/**
 * Stretch experiment (not shipped): does a second thread help the standalone server?
 *
 * One worker thread owns the socket: it parses HTTP, reads bodies and writes answers. The main
 * thread keeps the one sandbox and runs msw's `getResponse` over its handlers, exactly as the
 * node:http adapter does. They talk over the worker's MessagePort: {method, url, headers, body}
 * in, {status, headers, text} out. State is never split; what moves off the main thread is the
 * HTTP parser and the socket writes (about a third of a request's CPU in the profile).
 *
 * Usage: node bench/experiments/worker-http.mjs [sendbox flags]   (then load it like the bench does)
 * Compare: node bench/experiments/compare-worker.mjs
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

if (isMainThread) {
  const { getResponse } = await import('msw')
  const { parseCli } = await import('../../dist/src/cli/options.js')
  const { sandboxFromSettings } = await import('../../dist/src/cli/run.js')
  const { answerTextOf, attachBufferedBody } = await import('../../dist/src/http/guard.js')
  const settings = parseCli(process.argv.slice(2), {})
  const sandbox = await sandboxFromSettings(settings)
  const origin = new URL(sandbox.baseUrl).origin
  const worker = new Worker(new URL(import.meta.url), { workerData: { port: settings.port, host: settings.host } })
  worker.on('message', async ({ id, method, url, rawHeaders, body }) => {
    const headers = new Headers()
    for (let i = 0; i < rawHeaders.length; i += 2) headers.append(rawHeaders[i], rawHeaders[i + 1])
    const request = new Request(origin + url, { method, headers })
    attachBufferedBody(request, body ?? new Uint8Array(0))
    const response = await getResponse(sandbox.handlers, request)
    if (!response) {
      worker.postMessage({
        id,
        status: 404,
        headers: { 'content-type': 'application/json' },
        text: '{"error":{"code":"not_found","message":"Not found."}}',
      })
      return
    }
    const out = {}
    response.headers.forEach((value, name) => {
      out[name] = value
    })
    worker.postMessage({
      id,
      status: response.status,
      headers: out,
      text: answerTextOf(response) ?? (await response.text()),
    })
  })
  const stop = () => {
    sandbox.dispose()
    void worker.terminate().then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
} else {
  const { createServer } = await import('node:http')
  const CORS = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
  }
  const pending = new Map()
  let nextId = 0
  parentPort.on('message', ({ id, status, headers, text }) => {
    const res = pending.get(id)
    pending.delete(id)
    res.writeHead(status, { ...CORS, ...headers, 'content-length': Buffer.byteLength(text) })
    res.end(text)
  })
  createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      const id = nextId++
      pending.set(id, res)
      const body = chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
      parentPort.postMessage({ id, method: req.method, url: req.url, rawHeaders: req.rawHeaders, body })
    })
  }).listen(workerData.port, workerData.host)
}
