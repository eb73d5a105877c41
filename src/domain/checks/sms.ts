import type { Check } from '../../contract/checks.js'
import type { SmsMessage } from '../../contract/captured-message.js'
import { encodeSms, isGsmCharacter } from '../sms-encoding.js'
import { finding } from './rules.js'

/**
 * SMS checks (issue 35, item 3): what makes an SMS cost more, arrive badly or not at all. Pure
 * functions of the captured message; the rules and their severities are in rules.ts.
 */

/** Characters that are not GSM-7 but have a GSM-7 look-alike (typographic quotes, dashes, spaces). */
const REPLACEMENTS: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u00b4': "'",
  '\u0060': "'",
  '\u2039': "'",
  '\u203a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u2022': '*',
  '\u00b7': '.',
  '\u2122': 'TM',
  '\u00a9': '(c)',
  '\u00ae': '(R)',
  '\u00a0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u202f': ' ',
  '\u205f': ' ',
  '\u3000': ' ',
  '\u00ad': '',
  '\u200b': '',
  '\u200c': '',
  '\u200d': '',
  '\u2060': '',
  '\ufeff': '',
}

/** The GSM-7 replacement of a character, or undefined when it has none (an emoji, a CJK character). */
export function gsmReplacement(character: string): string | undefined {
  const listed = REPLACEMENTS[character]
  if (listed !== undefined) return listed
  // A letter with a diacritic GSM-7 lacks (á, ç, ő): its base letter.
  const base = character.normalize('NFD').replace(/\p{M}+/gu, '')
  return base !== character && base !== '' && [...base].every(isGsmCharacter) ? base : undefined
}

/** UCS-2 culprits listed one by one, at most this many (an SMS in another script is UCS-2 by nature). */
export const MAX_UCS2_FINDINGS = 50

function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

function ucs2Checks(text: string): Check[] {
  const chars = [...text]
  const culprits = chars
    .map((character, position) => ({ character, position }))
    .filter(({ character }) => !isGsmCharacter(character))
  if (culprits.length === 0) return []
  const now = encodeSms(text)
  const replaced = chars.map((c) => (isGsmCharacter(c) ? c : (gsmReplacement(c) ?? c))).join('')
  const after = encodeSms(replaced)
  const outcome =
    after.encoding === 'GSM-7'
      ? `Replaced, the SMS is GSM-7 in ${after.segments} segment${after.segments === 1 ? '' : 's'} instead of UCS-2 in ${now.segments}.`
      : `Some characters have no GSM-7 replacement: the SMS stays UCS-2 (${now.segments} segment${now.segments === 1 ? '' : 's'}).`
  const checks = culprits.slice(0, MAX_UCS2_FINDINGS).map(({ character, position }) => {
    const replacement = gsmReplacement(character)
    const fix =
      replacement === undefined
        ? 'it has no GSM-7 replacement'
        : replacement === ''
          ? 'remove it (it is invisible)'
          : `replace it with ${JSON.stringify(replacement)}`
    return finding(
      'sms.ucs2-character',
      `${JSON.stringify(character)} (${codePoint(character)}) at position ${position} is not in GSM-7 and switches the SMS to UCS-2 (70 characters a segment instead of 160): ${fix}. ${outcome}`,
      {
        character,
        position,
        ...(replacement === undefined ? {} : { replacement }),
      },
    )
  })
  if (culprits.length > MAX_UCS2_FINDINGS)
    checks.push(
      finding(
        'sms.ucs2-character',
        `${culprits.length - MAX_UCS2_FINDINGS} more characters outside GSM-7 are not listed. ${outcome}`,
      ),
    )
  return checks
}

function segmentChecks(message: SmsMessage): Check[] {
  const { segments, encoding, units } = message.sms
  if (segments <= 1) return []
  const perPart = encoding === 'GSM-7' ? 153 : 67
  return [
    finding(
      'sms.segments',
      `The SMS is ${segments} segments (${units} ${encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'} in ${encoding}, ${perPart} a segment once split): carriers bill each segment. Shorten it to ${encoding === 'GSM-7' ? 160 : 70} to send one.`,
    ),
  ]
}

/** A sender that is a name rather than a number (`Acme`, `ACME2FA`). */
function alphanumeric(from: string): boolean {
  return /[A-Za-z]/.test(from) && !/^\+?[0-9]+$/.test(from)
}

function senderChecks(message: SmsMessage): Check[] {
  const from = message.sms.from
  if (message.direction !== 'outbound' || from === null || !alphanumeric(from) || !message.to.startsWith('+1'))
    return []
  return [
    finding(
      'sms.alphanumeric-sender',
      `The sender "${from}" is alphanumeric, and ${message.to} is a +1 (US or Canada) number: carriers there do not deliver alphanumeric sender IDs. Send from a long code, a toll-free number or a short code.`,
    ),
  ]
}

/** Public URL shorteners that US carriers filter (shared domains used by spammers). */
export const URL_SHORTENERS = [
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  'goo.gl',
  't.co',
  'ow.ly',
  'is.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'rb.gy',
  'v.gd',
  'bl.ink',
  't.ly',
  's.id',
  'shorte.st',
  'adf.ly',
  'lnkd.in',
]

const SHORTENER_IN_TEXT = new RegExp(
  `(?<![\\w.-])(?:https?://)?(?:www\\.)?(${URL_SHORTENERS.map((h) => h.replace(/\./g, '\\.')).join('|')})(?:/[^\\s]*)?(?![\\w.-])`,
  'gi',
)

function linkChecks(message: SmsMessage): Check[] {
  const checks: Check[] = []
  const seen = new Set<string>()
  for (const match of message.sms.text.matchAll(SHORTENER_IN_TEXT)) {
    if (seen.has(match[0])) continue
    seen.add(match[0])
    checks.push(
      finding(
        'sms.url-shortener',
        `${match[0]} uses the public shortener ${match[1].toLowerCase()}: US carriers filter SMS with shared shorteners. Link your own domain (or a branded short domain) instead.`,
        { link: match[0] },
      ),
    )
  }
  for (const link of message.links) {
    if (link.startsWith('http:'))
      checks.push(
        finding(
          'sms.http-link',
          `${link} is plain http: phones warn or refuse, and the link can be tampered with on the way. Use https.`,
          { link },
        ),
      )
  }
  return checks
}

/** Every SMS check of a captured SMS, in rule order. */
export function smsChecks(message: SmsMessage): Check[] {
  return [...ucs2Checks(message.sms.text), ...segmentChecks(message), ...senderChecks(message), ...linkChecks(message)]
}
