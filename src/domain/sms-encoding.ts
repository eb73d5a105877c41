/** GSM 03.38 basic character set (one septet each). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'
/** GSM 03.38 extension table: sent as escape + character, so two septets each. */
const GSM_EXTENSION = '\f^{}\\[~]|€'

const basic = new Set(GSM_BASIC)
const extension = new Set(GSM_EXTENSION)

/** Whether one character (a code point) travels in GSM-7, from the basic set or the extension table. */
export function isGsmCharacter(character: string): boolean {
  return basic.has(character) || extension.has(character)
}

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
  const { parts, ...encoding } = segmentSms(text)
  return { ...encoding, segments: parts.length }
}

/**
 * {@link encodeSms} with the text of each segment, in order (the web inbox draws the boundaries
 * with it). One rule for both, so the page and the API never disagree on a count.
 * @example segmentSms('a'.repeat(161)).parts.map((p) => p.length) // [153, 8]
 */
export function segmentSms(text: string): Omit<SmsEncoding, 'segments'> & { parts: string[] } {
  const chars = [...text]
  const gsm = chars.every((c) => basic.has(c) || extension.has(c))
  const widths = gsm ? chars.map((c) => (extension.has(c) ? 2 : 1)) : chars.map((c) => c.length) // 2 for characters outside the BMP
  const { units, parts } = gsm ? segment(chars, widths, 160, 153) : segment(chars, widths, 70, 67)
  return { encoding: gsm ? 'GSM-7' : 'UCS-2', units, parts, characters: chars.length }
}

function segment(chars: string[], widths: number[], single: number, part: number): { units: number; parts: string[] } {
  const units = widths.reduce((sum, w) => sum + w, 0)
  if (units === 0) return { units, parts: [] }
  if (units <= single) return { units, parts: [chars.join('')] }
  const parts: string[] = []
  let current = ''
  let used = 0
  chars.forEach((c, i) => {
    if (used + widths[i] > part) {
      parts.push(current)
      current = ''
      used = 0
    }
    current += c
    used += widths[i]
  })
  parts.push(current)
  return { units, parts }
}
