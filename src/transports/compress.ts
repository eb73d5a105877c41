type Zlib = typeof import('node:zlib')
let zlib: Zlib | undefined

/** Answers shorter than this go as they are: gzip would save little and cost a call. */
export const COMPRESS_MIN_BYTES = 1_024

/**
 * The gzip form of a /__sandbox answer for a client that accepts it (the web inbox's first page
 * of 100 summaries, the journal, the OpenAPI document), or undefined to send it as it is. The
 * /v1 API's answers are never compressed: they are small, and the send path counts every
 * microsecond. Level 4: ~4x smaller JSON for a fraction of level 9's time.
 */
export function gzipAnswer(path: string, acceptEncoding: string | undefined, payload: string): Buffer | undefined {
  if (payload.length < COMPRESS_MIN_BYTES || !path.startsWith('/__sandbox/') || acceptEncoding === undefined)
    return undefined
  if (!/(?:^|,)\s*gzip\s*(?:;\s*q=(?:1(?:\.0*)?|0?\.\d*[1-9]\d*))?\s*(?:,|$)/i.test(acceptEncoding)) return undefined
  // Loaded at the first compressed answer (the library entry imports nothing it may not use).
  zlib ??= process.getBuiltinModule('node:zlib') as Zlib
  return zlib.gzipSync(payload, { level: 4 })
}
