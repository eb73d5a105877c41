import type { z } from 'zod'
import type { healthSchema } from '../contract/controls.js'

/** Options of `createSandboxClient`. */
export interface ClientOptions {
  /** A running sandbox's origin, like `http://127.0.0.1:4010` (a trailing `/` is fine). */
  url: string
  /** The sandbox's admin token (`sendbox --admin-token`), sent as `X-Sendbox-Admin-Token`. */
  adminToken?: string
  /**
   * A team token of a shared, hosted sandbox, sent as `Authorization: Bearer <token>`.
   * Team tokens are not built yet: no sendbox checks it today.
   */
  teamToken?: string
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch
  /** @internal The longest one long poll of `waitFor` asks for (default and most: the server's 60 s). */
  longPollMs?: number
}

/** A control answered with an error: the API's `{ error: { code, message } }`, or no sendbox at all. */
export class SandboxClientError extends Error {
  override readonly name = 'SandboxClientError'
  constructor(
    message: string,
    /** The HTTP status (0 when no answer came). */
    readonly status: number,
    /** The API's error code (`not_found`, `unauthorized`, …), or `not_a_sandbox`, `unreachable`. */
    readonly code: string,
  ) {
    super(message)
  }
}

type Health = z.infer<typeof healthSchema>

interface CallOptions {
  method?: string
  body?: unknown
  signal?: AbortSignal
  /** A 404 `not_found` answers undefined instead of throwing. */
  missing?: boolean
  /** Headers of this call, over the client's own (the API's `Authorization: Bearer <API key>`). */
  headers?: Record<string, string>
}

/** First characters of an answer that was not what was asked for, for an error line. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || '(empty body)'
}

/** The HTTP side of the client: headers, the sendbox check before the first call, errors. */
export class ClientTransport {
  readonly origin: string
  private readonly headers: Record<string, string> = {}
  private readonly fetch: typeof fetch
  private checked: Promise<Health> | undefined

  constructor(options: ClientOptions) {
    if (typeof options?.url !== 'string' || !/^https?:\/\/[^/]/i.test(options.url)) {
      throw new TypeError(
        `createSandboxClient: url must be a sandbox's http(s) origin, like http://127.0.0.1:4010 (got ${JSON.stringify(options?.url)}).`,
      )
    }
    this.origin = options.url.replace(/\/+$/, '')
    if (options.adminToken) this.headers['x-sendbox-admin-token'] = options.adminToken
    if (options.teamToken) this.headers.authorization = `Bearer ${options.teamToken}`
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  }

  /** `GET /__sandbox/health`, checked for sendbox's shape; remembered once it succeeded. */
  health(): Promise<Health> {
    this.checked ??= this.probe().catch((error: unknown) => {
      this.checked = undefined
      throw error
    })
    return this.checked
  }

  private async probe(): Promise<Health> {
    const url = `${this.origin}/__sandbox/health`
    const response = await this.send(url, { headers: this.headers })
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    const health = body as Partial<Health> | undefined
    if (response.ok && health?.ok === true && typeof health.version === 'string') return health as Health
    const apiError = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error
    if (apiError && typeof apiError.message === 'string' && response.status === 401) {
      throw new SandboxClientError(
        `${this.origin} is a sendbox but refused the client: ${apiError.message}`,
        401,
        String(apiError.code),
      )
    }
    const found = `${response.status} ${response.headers.get('content-type') ?? 'no content type'} ${excerpt(text)}`
    throw new SandboxClientError(
      `${this.origin} is not a sendbox (or one too old for this client): GET /__sandbox/health answered ${found}, not { ok: true, version }.`,
      response.status,
      'not_a_sandbox',
    )
  }

  /**
   * One request, following redirects within the sandbox's origin only (issue 36, R15): fetch keeps
   * custom headers such as `X-Sendbox-Admin-Token` across a redirect to another origin, so a
   * redirect that leaves it is refused instead, and the token never goes there.
   */
  private async send(url: string, init: RequestInit): Promise<Response> {
    let current = url
    let request = init
    for (let hops = 0; ; hops++) {
      const response = await this.sendOnce(current, { ...request, redirect: 'manual' })
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null
      if (location === null) return response
      const next = new URL(location, current)
      if (next.origin !== new URL(this.origin).origin) {
        void response.body?.cancel().catch(() => {})
        throw new SandboxClientError(
          `${this.origin} redirected ${current} to another origin (${next.origin}); the client does not follow it, so the token is never sent there.`,
          response.status,
          'cross_origin_redirect',
        )
      }
      if (hops >= 5)
        throw new SandboxClientError(
          `${this.origin} redirected more than 5 times (${current}).`,
          response.status,
          'too_many_redirects',
        )
      void response.body?.cancel().catch(() => {})
      if (response.status === 303) request = { ...request, method: 'GET', body: undefined }
      current = next.href
    }
  }

  private async sendOnce(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(url, init)
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason
      throw new SandboxClientError(
        `${this.origin} did not answer (${url}): ${(error as Error)?.cause ?? (error as Error)?.message ?? String(error)}`,
        0,
        'unreachable',
      )
    }
  }

  /** One control call: JSON in, JSON out; an error answer throws {@link SandboxClientError}. */
  async json<T>(path: string, options: CallOptions & { missing: true }): Promise<T | undefined>
  async json<T>(path: string, options?: CallOptions): Promise<T>
  async json<T>(path: string, options: CallOptions = {}): Promise<T | undefined> {
    await this.health()
    const method = options.method ?? 'GET'
    const headers: Record<string, string> = { ...this.headers, ...options.headers }
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const response = await this.send(`${this.origin}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    })
    const text = await response.text()
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      throw new SandboxClientError(
        `${method} ${this.origin}${path} answered ${response.status} with a body that is not JSON: ${excerpt(text)}`,
        response.status,
        'invalid_answer',
      )
    }
    if (response.ok) return body as T
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error
    if (options.missing && response.status === 404 && error?.code === 'not_found') return undefined
    throw new SandboxClientError(
      error?.message ?? `${method} ${path} answered ${response.status}: ${excerpt(text)}`,
      response.status,
      error?.code ?? 'http_error',
    )
  }
}
