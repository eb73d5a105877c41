/** A seeded pseudo-random source in [0, 1) (mulberry32): fault probabilities repeat run to run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0))
const ID_LENGTH = 24
const POOL_SIZE = 4096
let pool = new Uint8Array(0)
let offset = 0
/** The id's character codes, reused: one flat string made at once (24 concatenations made a rope V8 flattened when the id was first hashed). */
const codes: number[] = new Array<number>(ID_LENGTH).fill(0)

/**
 * An opaque, URL-safe, prefixed id (`msg_…`, `sub_…`) of 24 base62 characters (~143 bits).
 * Random bytes are drawn in blocks (Web Crypto, so browsers work too): one draw per ~170 ids.
 */
export function newId(prefix: string): string {
  if (offset + ID_LENGTH > pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_SIZE))
    offset = 0
  }
  for (let i = 0; i < ID_LENGTH; i++) codes[i] = CODES[pool[offset++] % 62]
  return prefix + String.fromCharCode.apply(null, codes)
}
