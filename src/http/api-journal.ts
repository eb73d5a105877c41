import { JOURNAL_BODY_LIMIT } from '../contract/journal.js'
import type { ApiError } from '../domain/errors.js'
import { isoAt } from '../domain/clock.js'
import type { ApiKeyConfig } from '../domain/plans.js'
import { maskKey } from '../domain/plans.js'
import type { SandboxState } from '../domain/sandbox.js'
import { packHeaders, type PackedHeaders } from '../domain/journal-headers.js'
import { pushHeaderPairs, RawHeaders, type WireRequest } from './body.js'

/** What the guard chain gathers of a request for its entry besides its status. */
export interface JournalTrace {
  requestBody?: Uint8Array
  /** The body as text, when the parse decoded it (the journal keeps it when it keeps the body whole). */
  text?: string
}

/** What an API request's journal entry is made of (the guard chain's run of it). */
export interface JournaledRun {
  sandbox: SandboxState
  request: WireRequest
  url: URL
  arrivedAt: number
  key?: ApiKeyConfig
  token?: string
  trace: JournalTrace
  messageId: string | null
  /** The injected fault that answered, if one did: the journal names it. */
  faultId?: string
}

/** Each configured key as the journal shows it (a key's config lives as long as its sandbox). */
const maskedKeys = new WeakMap<ApiKeyConfig, string>()
function maskedKeyOf(key: ApiKeyConfig): string {
  let masked = maskedKeys.get(key)
  if (masked === undefined) {
    masked = maskKey(key.key)
    maskedKeys.set(key, masked)
  }
  return masked
}

const textDecoder = new TextDecoder()

/** Bytes of a body decoded for its journal entry: enough for {@link JOURNAL_BODY_LIMIT} characters of any UTF-8 (and the ellipsis's cue). */
const JOURNAL_BODY_BYTES = JOURNAL_BODY_LIMIT * 4 + 4

/**
 * A request body as its entry keeps it: the text the JSON parse decoded when the body is short
 * enough to be kept whole (no second decoding), else the bytes the journal keeps, decoded.
 */
function journalBody(bytes: Uint8Array | undefined, text: string | undefined): string | null {
  if (bytes === undefined || bytes.byteLength === 0) return null
  if (text !== undefined && bytes.byteLength <= JOURNAL_BODY_BYTES) return text
  return textDecoder.decode(bytes.subarray(0, JOURNAL_BODY_BYTES))
}

/** The request's journal entry: line, status, error, who, and the bodies (cut to the journal's limit). */
export function journalApiRequest(
  run: JournaledRun,
  status: number,
  apiError: ApiError | undefined,
  note: string,
  ms: number,
): void {
  const { sandbox, request, url, key, token, trace } = run
  sandbox.journal.record({
    at: isoAt(run.arrivedAt),
    kind: 'api',
    method: request.method,
    url,
    status,
    duration_ms: Math.round(ms * 100) / 100,
    error_code: apiError?.code ?? null,
    account: key?.account ?? null,
    key: key ? maskedKeyOf(key) : token ? maskKey(token) : null,
    // The journal cuts each of these to JOURNAL_BODY_LIMIT characters; decode no more than that.
    error_message: apiError ? apiError.message + (run.faultId ? ` (injected fault ${run.faultId})` : '') + note : null,
    request_body: journalBody(trace.requestBody, trace.text),
    response_body: apiError ? JSON.stringify(apiError.toBody()) : null,
    packed_headers: packedHeadersOf(request),
    message_id: run.messageId,
    fault_id: run.faultId ?? null,
  })
}

/**
 * The request's headers for its journal entry, raw: formatted when the entry is first read (the
 * journal of 1,000 entries is rarely read, and formatting was ~10 µs of every request).
 * Undefined when the request has no headers of either kind (the entry shows null).
 */
function packedHeadersOf(request: WireRequest): PackedHeaders | undefined {
  const headers = request.headers as unknown
  if (headers instanceof RawHeaders) return packHeaders(headers.pairs)
  if (typeof (headers as Headers).forEach !== 'function') return undefined
  return packHeaders(pushHeaderPairs(headers as Headers, []))
}
