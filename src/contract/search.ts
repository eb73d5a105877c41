/**
 * The rule of the outbox's `q` filter: words that must all appear, in any order, case-insensitive.
 * Zod-free, so that the server's filter (src/domain/outbox-filter.ts), the terminal UI's search and
 * the web inbox's live list (which decides whether a message arriving on the event stream belongs
 * to the filtered list) apply one rule.
 */

/** A search's words, lower-cased: "Maria  reset" → ["maria", "reset"] (an empty search is one empty word, which matches all). */
export function searchWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '')
  return words.length === 0 ? [''] : words
}

/** True when `text` (lower-cased) holds every word, in any order: "maria reset" finds "Reset, Maria". */
export function matchesWords(text: string, words: readonly string[]): boolean {
  for (const word of words) if (!text.includes(word)) return false
  return true
}
