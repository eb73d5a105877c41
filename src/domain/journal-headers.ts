import { isCredentialHeader } from './credential-headers.js'
import { maskKey } from './plans.js'

/** Most headers a journal entry keeps, and most characters of each value. */
export const JOURNAL_HEADER_LIMIT = 40
export const JOURNAL_HEADER_VALUE_LIMIT = 512

/**
 * A request's headers as a journal entry keeps them until someone reads it: the names and values
 * in the order they came, joined with line feeds. Neither can hold one: Node's HTTP parser ends a
 * header line at a line feed, and Fetch's `Headers` refuses a value with one (and a name that is
 * not a token). One string, not the transport's array of strings: an entry outlives ~1,000
 * requests, so under load all it holds is copied out of the young generation, and the array and
 * its strings were the most of it (`bench/experiments/promoted-bytes.mjs`).
 */
export type PackedHeaders = string

/** The pairs {@link packHeaders} packed last, and what it made of them. */
let lastPairs: readonly string[] = []
let lastPacked: PackedHeaders = ''

/**
 * {@link PackedHeaders} of alternating names and values (as Node's parser or Fetch's `Headers`
 * gave them). A client sends the same headers request after request: equal to the last ones, the
 * last string is given again, so the entry keeps one string many entries share, and the new
 * pairs die young instead of being copied out of the young generation with the entry.
 */
export function packHeaders(pairs: readonly string[]): PackedHeaders {
  if (pairs.length === lastPairs.length) {
    let i = 0
    while (i < pairs.length && pairs[i] === lastPairs[i]) i++
    if (i === pairs.length) return lastPacked
  }
  lastPacked = pairs.join('\n')
  lastPairs = pairs
  return lastPacked
}

/** The pairs back; none when they do not pair up (a line feed got in after all: better no headers than a value read as a name). */
function unpackHeaders(packed: PackedHeaders): readonly string[] {
  if (packed === '') return []
  const pairs = packed.split('\n')
  return pairs.length % 2 === 0 ? pairs : []
}

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
 * The headers of a journal entry as readers get them, made at the entry's first read: names
 * lower-cased, repeated ones joined, every credential header ({@link isCredentialHeader}:
 * `Authorization`, `X-Api-Key`, cookies, tokens, secrets) masked, at most
 * {@link JOURNAL_HEADER_LIMIT}, sorted: what QA reads to trace a message to the call that sent it.
 */
export function journalHeadersOf(packed: PackedHeaders): Record<string, string> {
  const pairs = unpackHeaders(packed)
  const out: Record<string, string> = {}
  let count = 0
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const name = pairs[i]
    const value = pairs[i + 1]
    if (count >= JOURNAL_HEADER_LIMIT) break
    const lower = name.toLowerCase()
    // The sandbox's own address: the same for every request, and not the caller's.
    if (lower === 'host') continue
    // Repeated headers joined with ", " before masking, as Fetch's Headers joins them.
    if (Object.hasOwn(out, lower)) out[lower] = `${out[lower]}, ${value}`
    else {
      Object.defineProperty(out, lower, { value, enumerable: true, writable: true, configurable: true })
      count++
    }
  }
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
