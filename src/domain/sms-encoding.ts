/** GSM 03.38 basic character set (one septet each). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'
/** GSM 03.38 extension table: sent as escape + character, so two septets each. */
const GSM_EXTENSION = '\f^{}\\[~]|€'

const basic = new Set(GSM_BASIC)
const extension = new Set(GSM_EXTENSION)

/** How an SMS text travels: its encoding, its length in that encoding's units, and its segments. */
export interface SmsEncoding {
  encoding: 'GSM-7' | 'UCS-2'
  /** Septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number
  segments: number
  /** Unicode code points in the text. */
  characters: number
}

/**
 * Segments a message the way carriers do: GSM-7 fits 160 septets in one SMS or 153 per part
 * of a concatenated one, and an escape pair is never split across parts; UCS-2 fits 70 units
 * or 67 per part, and a surrogate pair is never split.
 */
export function encodeSms(text: string): SmsEncoding {
  const chars = [...text]
  const gsm = chars.every((c) => basic.has(c) || extension.has(c))
  if (gsm) {
    const widths = chars.map((c) => (extension.has(c) ? 2 : 1))
    return { encoding: 'GSM-7', ...segment(widths, 160, 153), characters: chars.length }
  }
  const widths = chars.map((c) => c.length) // 2 for characters outside the BMP
  return { encoding: 'UCS-2', ...segment(widths, 70, 67), characters: chars.length }
}

function segment(widths: number[], single: number, part: number): { units: number; segments: number } {
  const units = widths.reduce((sum, w) => sum + w, 0)
  if (units <= single) return { units, segments: units === 0 ? 0 : 1 }
  let segments = 1
  let used = 0
  for (const width of widths) {
    if (used + width > part) {
      segments++
      used = 0
    }
    used += width
  }
  return { units, segments }
}
