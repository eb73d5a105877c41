import { isCredentialHeader } from '../domain/credential-headers.js'
import { maskKey } from '../domain/plans.js'
import { RawHeaders, type WireRequest } from './body.js'

/** Most headers a journal entry keeps, and most characters of each value. */
export const JOURNAL_HEADER_LIMIT = 40
export const JOURNAL_HEADER_VALUE_LIMIT = 512

/** A secret header's value as the journal shows it: the scheme kept, the credential masked. */
function masked(name: string, value: string): string {
  if (name === 'authorization') {
    const match = /^(\S+)(\s+)(.*)$/.exec(value)
    return match ? `${match[1]}${match[2]}${maskKey(match[3])}` : maskKey(value)
  }
  if (isCredentialHeader(name)) return maskKey(value)
  return value.length > JOURNAL_HEADER_VALUE_LIMIT ? `${value.slice(0, JOURNAL_HEADER_VALUE_LIMIT)}…` : value
}

/**
 * The request's headers for its journal entry, names lower-cased, every credential header
 * ({@link isCredentialHeader}: `Authorization`, `X-Api-Key`, cookies, tokens, secrets) masked, at most {@link JOURNAL_HEADER_LIMIT}: what QA reads to trace a message to the
 * call that sent it. Works on the standalone server's raw pairs and on a Fetch `Headers`.
 */
export function journalHeaders(request: WireRequest): Record<string, string> | null {
  const pairs = headerPairs(request)
  return pairs === null ? null : formatJournalHeaders(pairs)
}

/**
 * The request's headers as the journal will show them, computed only when someone reads the
 * entry: the request path keeps the raw name/value pairs (the standalone server's own array, a
 * copy of a Fetch `Headers`), and the lower-casing, joining, masking and sorting of
 * {@link journalHeaders} runs at the first read (the journal of 1,000 entries is rarely read, and
 * that work was ~10 µs of every request).
 */
export function lazyJournalHeaders(request: WireRequest): () => Record<string, string> | null {
  const pairs = headerPairs(request)
  if (pairs === null) return () => null
  let formatted: Record<string, string> | undefined
  return () => (formatted ??= formatJournalHeaders(pairs))
}

/** The request's headers as alternating names and values (null when it has neither kind of headers). */
function headerPairs(request: WireRequest): readonly string[] | null {
  const headers = request.headers as unknown
  if (headers instanceof RawHeaders) return headers.pairs
  if (typeof (headers as Headers).forEach !== 'function') return null
  const pairs: string[] = []
  ;(headers as Headers).forEach((value, name) => pairs.push(name, value))
  return pairs
}

/** {@link journalHeaders} of alternating names and values. */
function formatJournalHeaders(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  let count = 0
  const add = (name: string, value: string) => {
    if (count >= JOURNAL_HEADER_LIMIT) return
    const lower = name.toLowerCase()
    // The sandbox's own address: the same for every request, and not the caller's.
    if (lower === 'host') return
    // Repeated headers joined with ", " before masking, as Fetch's Headers joins them.
    if (Object.hasOwn(out, lower)) out[lower] = `${out[lower]}, ${value}`
    else {
      Object.defineProperty(out, lower, { value, enumerable: true, writable: true, configurable: true })
      count++
    }
  }
  for (let i = 0; i < pairs.length; i += 2) add(pairs[i], pairs[i + 1])
  // One order whatever the transport (Fetch's Headers iterate sorted, raw pairs as sent).
  const sorted: Record<string, string> = {}
  for (const name of Object.keys(out).sort())
    Object.defineProperty(sorted, name, {
      value: masked(name, out[name]),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  return sorted
}
