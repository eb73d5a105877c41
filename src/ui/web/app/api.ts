/**
 * The page's only way out: fetch to the same origin's /__sandbox API. Carries the admin token
 * (kept in sessionStorage, sent as `X-Sendbox-Admin-Token`, never in a URL) and asks for it once
 * when the server answers 401.
 */
import type { Page } from './types.js'

const TOKEN_KEY = 'sendbox.adminToken'

/** An error answer of the API, with its `error.code` and message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'ApiFailure'
  }
}

/** Shows the token dialog; resolves with the token typed, or null when the user cancels. */
export type TokenPrompt = (retry: boolean) => Promise<string | null>

let prompt: TokenPrompt = async () => null
let asking: Promise<string | null> | null = null
/** True once this server answered 401: it wants the admin token. */
let tokenRequired = false

/** Whether the server has asked for the admin token (a 401) since the page loaded. */
export function needsAdminToken(): boolean {
  return tokenRequired
}

/**
 * With a token kept from earlier in the tab, no 401 tells whether the server still wants one:
 * one GET without it does (the email preview needs to know).
 */
export async function probeAdminToken(): Promise<void> {
  if (adminToken() === null) return
  try {
    const response = await fetch('/__sandbox/health', { cache: 'no-store', credentials: 'omit' })
    if (response.status === 401) tokenRequired = true
  } catch {
    // offline: the event stream reports it
  }
}

/** The user cancelled the dialog: stop asking until they choose to (the header's button). */
let declined = false

/** Installs the dialog that asks for the admin token (the app does, once). */
export function setTokenPrompt(next: TokenPrompt): void {
  prompt = next
}

export function adminToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

function storeToken(token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(TOKEN_KEY)
    else sessionStorage.setItem(TOKEN_KEY, token)
  } catch {
    // storage disabled: the token lives as long as the page
  }
}

/** The headers every call carries: the admin token when one is known. */
export function authHeaders(): Record<string, string> {
  const token = adminToken()
  return token ? { 'X-Sendbox-Admin-Token': token } : {}
}

/**
 * Called on a 401 answered to a request sent with `sent` (the token then stored, or null): one
 * dialog at a time, whoever asked, and none when the token changed since (another caller asked
 * already). Resolves true when there is a new token to retry with, false when the user cancelled.
 */
export async function askForToken(sent: string | null): Promise<boolean> {
  tokenRequired = true
  if (adminToken() !== sent) return true
  if (declined) return false
  const hadToken = sent !== null
  asking ??= prompt(hadToken).finally(() => {
    asking = null
  })
  const token = await asking
  if (token === null || token === '') {
    declined = true
    return false
  }
  storeToken(token)
  return true
}

/** Asks for the token again after a cancel (the header's "Enter admin token"); reloads on success. */
export async function enterToken(): Promise<void> {
  declined = false
  if (await askForToken(adminToken())) location.reload()
}

/** Forgets the stored token (the "sign out" of the header). */
export function forgetToken(): void {
  storeToken(null)
}

async function failureOf(response: Response): Promise<ApiFailure> {
  let code = 'http_' + response.status
  let message = `${response.status} ${response.statusText}`
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } }
    if (body.error?.code) code = body.error.code
    if (body.error?.message) message = body.error.message
  } catch {
    // not the API's error object
  }
  return new ApiFailure(response.status, code, message)
}

/**
 * One call to the sandbox API. State changes send `Content-Type: application/json` (the server
 * refuses anything else on /__sandbox); a 401 asks for the admin token and retries.
 * @example await call('POST', '/__sandbox/reset?scope=messages', {})
 */
export async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const sent = adminToken()
    const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() }
    if (method !== 'GET') headers['Content-Type'] = 'application/json'
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
      credentials: 'omit',
    })
    if (response.status === 401 && attempt < 3 && (await askForToken(sent))) continue
    if (!response.ok) throw await failureOf(response)
    return (await response.json()) as T
  }
}

/** A GET of one page of a /__sandbox listing. */
export function getPage<T>(path: string, query: URLSearchParams, signal?: AbortSignal): Promise<Page<T>> {
  return call<Page<T>>('GET', `${path}?${query}`, undefined, signal)
}
