/**
 * The webhook sender's default way to post: fetch, with a deadline and a bounded read. On Node
 * `createSandbox` gives it src/transports/webhook-post.ts instead (a socket per attempt, destroyed
 * at the deadline); this one serves wherever node:http is not (a browser under setupWorker).
 */

/** What came back: the status and the first bytes of the answer. */
export interface WebhookAnswer {
  status: number
  excerpt: string
}

/** Why a post got no answer. */
export class WebhookPostError extends Error {
  constructor(readonly kind: 'timeout' | 'network_error') {
    super(kind)
  }
}

/** Posts `body` to `url`; resolves with the status and at most `limit` bytes of the answer, or rejects with a {@link WebhookPostError}. */
export type WebhookPost = (
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  limit: number,
) => Promise<WebhookAnswer>

/** {@link WebhookPost} over fetch. */
export async function postWithFetch(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  limit: number,
): Promise<WebhookAnswer> {
  const signal = AbortSignal.timeout(timeoutMs)
  let response: Response
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' })
  } catch {
    throw new WebhookPostError(signal.aborted ? 'timeout' : 'network_error')
  }
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (reader && size < limit) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } catch {
    // A body cut short still gives its status.
  } finally {
    // Cancelling an msw-mocked response's stream may never settle: release it without waiting.
    reader?.cancel().catch(() => {})
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return { status: response.status, excerpt: new TextDecoder().decode(all.subarray(0, limit)) }
}
