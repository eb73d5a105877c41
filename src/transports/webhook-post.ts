/**
 * One webhook POST with a hard deadline and a bounded read. On Node it goes through node:http
 * with a socket of its own (`agent: false`, `Connection: close`) that is destroyed at the
 * deadline or once the excerpt is read, so the sockets open to a receiver never outnumber the
 * attempts in flight (fetch's timed-out sockets closed later: 20 open at 16 in flight against
 * a receiver that never answers). Elsewhere (a browser under msw's setupWorker) it uses fetch.
 * The composition root (`createSandbox`) gives it to the domain's webhook sender.
 */

import { postWithFetch, WebhookPostError, type WebhookAnswer } from '../domain/webhook-post-fetch.js'

type NodeHttp = typeof import('node:http')
type GetBuiltin = (id: string) => unknown

/**
 * node:http and node:https through `process.getBuiltinModule` (Node >= 20.16): the very objects
 * msw's setupServer patches, with no import a browser bundle (setupWorker) would try to resolve,
 * and none the CLI's code-cached script would need a dynamic-import callback for.
 */
function nodeHttpModules(): [NodeHttp, NodeHttp] | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: GetBuiltin } }).process
  if (typeof proc?.getBuiltinModule !== 'function') return undefined
  return [proc.getBuiltinModule('node:http') as NodeHttp, proc.getBuiltinModule('node:https') as NodeHttp]
}

/** Posts `body` to `url`; resolves with the status and at most `limit` bytes of the answer, within `timeoutMs`. */
export async function postWebhookNode(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  limit: number,
): Promise<WebhookAnswer> {
  const modules = nodeHttpModules()
  return modules
    ? postWithNode(modules, url, headers, body, timeoutMs, limit)
    : postWithFetch(url, headers, body, timeoutMs, limit)
}

function postWithNode(
  [http, https]: [NodeHttp, NodeHttp],
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  limit: number,
): Promise<WebhookAnswer> {
  return new Promise((resolve, reject) => {
    let settled = false
    const chunks: Buffer[] = []
    let size = 0
    const finish = (error: WebhookPostError | undefined, status = 0) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      // Whatever is left unread is never read: the socket goes with the request.
      request.destroy()
      if (error) reject(error)
      else resolve({ status, excerpt: Buffer.concat(chunks).subarray(0, limit).toString('utf8') })
    }
    const module = url.startsWith('https:') ? https : http
    const request = module.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, connection: 'close', 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        const status = response.statusCode ?? 0
        response.on('data', (chunk: Buffer) => {
          if (size < limit) chunks.push(chunk)
          size += chunk.length
          if (size >= limit) finish(undefined, status)
        })
        response.on('end', () => finish(undefined, status))
        response.on('error', () => finish(undefined, status))
      },
    )
    const deadline = setTimeout(() => finish(new WebhookPostError('timeout')), timeoutMs)
    request.on('error', () => finish(new WebhookPostError('network_error')))
    request.end(body)
  })
}
