/**
 * htmlparser2's Parser keeps its open elements in an array it grows and shrinks at the front, so
 * each tag costs time in proportion to how deep it is nested: 900 KB of `<table><tr><td>` (180,000
 * open elements) held an email send's event loop for 2–11 s and a check worker for 21 s. Real
 * email HTML nests a few dozen deep (html-to-text stops at 256), so every SAX pass here stops
 * once the parser is deeper than {@link MAX_PARSE_DEPTH} and leaves the rest to its caller, which
 * reads it more roughly (tags stripped, URLs by pattern) or reports that it was not read.
 */

import { nextTurn } from './event-loop.js'

/** Open elements deeper than this end a SAX pass (the rest of the HTML is not parsed). */
export const MAX_PARSE_DEPTH = 1024

/**
 * How much HTML is written to the parser at once: the depth is checked between writes, so past
 * the limit a pass parses at most this much more (a `<b>` every 3 characters: ~1,400 more levels).
 */
const CHUNK = 4096

/** What a pass counts: its callbacks add one at each open tag and take one at each close tag (void and implied ones included). */
export interface Depth {
  depth: number
}

/**
 * Writes `html` to `parser` a chunk at a time while `counter.depth` stays within
 * {@link MAX_PARSE_DEPTH}, then ends the parser. Returns the offset of the first character not
 * parsed: `html.length` when all of it was.
 */
export function writeBounded(
  parser: { write(chunk: string): void; end(): void },
  html: string,
  counter: Depth,
): number {
  return finish(writeInChunks(parser, html, counter))
}

/** {@link writeBounded} as steps: it yields between chunks, so a caller may let the event loop turn there ({@link inTurns}). */
export function* writeInChunks(
  parser: { write(chunk: string): void; end(): void },
  html: string,
  counter: Depth,
): Generator<void, number> {
  let at = 0
  while (at < html.length && counter.depth <= MAX_PARSE_DEPTH) {
    const end = chunkEnd(html, at)
    parser.write(html.slice(at, end))
    at = end
    if (at < html.length) yield
  }
  parser.end()
  return at
}

/** Runs steps to their end at once. */
export function finish<T>(steps: Generator<void, T>): T {
  let step = steps.next()
  while (!step.done) step = steps.next()
  return step.value
}

/** How many chunks (up to 64 KB of HTML) {@link inTurns} parses in one turn of the event loop. */
const CHUNKS_PER_TURN = 16

/** Runs steps to their end, letting the event loop turn ({@link nextTurn}) every {@link CHUNKS_PER_TURN} steps. */
export async function inTurns<T>(steps: Generator<void, T>): Promise<T> {
  for (let step = steps.next(), n = 1; ; step = steps.next(), n++) {
    if (step.done) return step.value
    if (n % CHUNKS_PER_TURN === 0) await nextTurn()
  }
}

/**
 * Where a chunk starting at `at` ends: just before the last `<` within {@link CHUNK} characters,
 * so that a pass stopped between chunks stops between tags (not inside one, whose half the
 * parser would give back as text); a chunk without a `<` is taken whole.
 */
function chunkEnd(html: string, at: number): number {
  const end = at + CHUNK
  if (end >= html.length) return html.length
  for (let i = end; i > at; i--) if (html.charCodeAt(i) === 0x3c) return i
  return end
}
