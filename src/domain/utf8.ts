/**
 * The UTF-8 length of `text` (a lone surrogate counts as U+FFFD's three bytes, as encoding writes
 * it), without encoding it: a `Content-Length` or a size check need the count, not the bytes (and
 * this runs in browsers too, where there is no `Buffer.byteLength`).
 */
export function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2 // the pair's two units become four bytes
      i++
    } else bytes += 2
  }
  return bytes
}
