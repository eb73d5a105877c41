/** One-time codes in a message's text: the rule is documented with examples in docs/links-and-codes.md. */

/**
 * How much of a text is read for codes, in UTF-16 units: a one-time code stands near the top of
 * a message, and reading further only lets a hostile 1 MiB body cost the event loop more.
 */
export const MAX_TEXT_LENGTH = 100_000

/**
 * Words that announce a one-time code, in several languages. Latin-script words match at the
 * start of a word (so `código`, `Bestätigungscode`'s `code` suffix is covered separately);
 * CJK words match anywhere.
 */
const KEYWORDS = [
  'code',
  'codes',
  'otp',
  'pin',
  'passcode',
  'password',
  'passwort',
  'kennwort',
  'verification',
  'verify',
  'token',
  '2fa',
  'mfa',
  'one-time',
  'one time',
  'security',
  'authentication',
  'login',
  'sign-in',
  'tan',
  'código',
  'codigo',
  'clave',
  'senha',
  'contraseña',
  'codice',
  'kod',
  'kodu',
  'kode',
  'koden',
  'şifre',
  'mot de passe',
  'код',
  'пароль',
]
const CJK_KEYWORDS = [
  '验证码',
  '驗證碼',
  '認証コード',
  '確認コード',
  'コード',
  '인증번호',
  '인증 코드',
  '인증코드',
  'رمز',
]
const KEYWORD = new RegExp(
  // The compound suffix (`Bestätigungscode`, `verificatiecode`) is matched on its own, never as
  // `\\p{L}+code`: that form backtracks over every long run of letters (quadratic).
  `(?<![\\p{L}\\p{N}])(?:${KEYWORDS.map(escapeRegExp).join('|')})(?![\\p{L}])|(?:code|kode|kod|codice)(?![\\p{L}])|${CJK_KEYWORDS.map(escapeRegExp).join('|')}`,
  'giu',
)
/** A keyword right after one of these words names something that is not a one-time code. */
const NOT_A_CODE_BEFORE =
  /(?:promo|promotion|promotional|discount|coupon|voucher|gift|referral|zip|postal|post|country|area|tracking|source|qr|bar|dress|error|status|reason|tax|product|booking|confirmation number|order)\s*$/i

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Candidates: a run of 4–8 digits, or 4–10 uppercase letters and digits with at least one of
 * each, standing alone — not glued to letters, digits, `.`/`,` decimals, `:` times, `/`, `-`
 * dates or phone groups, `+`/`#`/currency prefixes, or a `%`.
 */
const CANDIDATE =
  /(?<![\p{L}\p{N}_+#$€£¥₹.,:/\\@&=%-])(?:[0-9]{4,8}|[A-Z0-9]{4,10})(?![\p{L}\p{N}_%€$£¥₹]|[.,:/-]\p{N})/gu
const CURRENCY_AFTER = /^\s?(?:usd|eur|gbp|jpy|inr|dollars?|euros?|pounds?|€|\$|£|¥|₹|kr|sek|nok|dkk|chf)\b/i
/** Digits joined to this candidate by one space, dot, dash or parenthesis make a longer number (a phone, a card). */
const GROUPED_BEFORE = /[0-9][ .)-]$|[0-9]\s?\($/
const GROUPED_AFTER = /^[ .(-]?[0-9]/

const NEAR_BEFORE = 60
const NEAR_AFTER = 40

function isYear(token: string): boolean {
  return token.length === 4 && /^(?:19|20)[0-9]{2}$/.test(token)
}

function hasDigitAndLetter(token: string): boolean {
  return /[0-9]/.test(token) && /[A-Z]/.test(token)
}

/** Keyword spans of a text (start, end), the ones that announce something else dropped. */
function keywordSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  for (const match of text.matchAll(KEYWORD)) {
    const start = match.index
    if (NOT_A_CODE_BEFORE.test(text.slice(Math.max(0, start - 30), start))) continue
    spans.push([start, start + match[0].length])
  }
  return spans
}

/** True when no line break stands between `from` and `to` (a code and its keyword share a line). */
function sameLine(text: string, from: number, to: number): boolean {
  // The window is at most NEAR_BEFORE characters: scanning it keeps the whole pass linear.
  return !text.slice(from, to).includes('\n')
}

const ADDRESS_STOP = new Set([' ', '\t', '\n', '\r', '\f', '\v', '@', '<', '>', '(', ')', '"', "'", ','])

/**
 * URLs and email addresses blanked out (same length), so their digits are never read as codes.
 * Email addresses are found from each `@` outwards (a pattern like `[^@]+@` would rescan a long
 * run of text at every position: quadratic).
 */
function blankAddresses(text: string): string {
  let out = text.replace(/\bhttps?:\/\/[^\s<>"'`]+|\bwww\.[^\s<>"'`]+/gi, (m) => ' '.repeat(m.length))
  if (!out.includes('@')) return out
  const spans: Array<[number, number]> = []
  for (let at = out.indexOf('@'); at !== -1; at = out.indexOf('@', at + 1)) {
    let start = at
    while (start > 0 && at - start < 64 && !ADDRESS_STOP.has(out[start - 1])) start--
    let end = at + 1
    while (end < out.length && end - at < 254 && !ADDRESS_STOP.has(out[end])) end++
    if (start < at && out.slice(at + 1, end).includes('.')) spans.push([start, end])
  }
  if (spans.length === 0) return out
  let result = ''
  let last = 0
  for (const [start, end] of spans) {
    if (start < last) continue
    result += out.slice(last, start) + ' '.repeat(end - start)
    last = end
  }
  out = result + out.slice(last)
  return out
}

/**
 * True when the candidate stands alone on a line that follows the keyword's line (blank lines
 * between allowed): the common email layout "Your verification code:" then the code in a box.
 */
function standsOnNextLine(text: string, keywordEnd: number, candidate: Candidate): boolean {
  const gap = text.slice(keywordEnd, candidate.start)
  if (!/^[^\n]*\n\s*$/.test(gap) || gap.split('\n').length > 4) return false
  const lineEnd = text.indexOf('\n', candidate.end)
  return (
    text
      .slice(
        candidate.end,
        lineEnd === -1 ? Math.min(text.length, candidate.end + 200) : Math.min(lineEnd, candidate.end + 200),
      )
      .trim() === ''
  )
}

interface Candidate {
  token: string
  start: number
  end: number
}

/** Index of the first candidate starting at or after `at` (candidates are in text order). */
function firstFrom(candidates: readonly Candidate[], at: number): number {
  let low = 0
  let high = candidates.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (candidates[mid].start < at) low = mid + 1
    else high = mid
  }
  return low
}

/** Words before a lone number that say what else it is (a room, an order, a zip code). */
const ONLY_NUMBER_BLOCKERS =
  /(?:room|floor|flight|gate|seat|order|invoice|ticket|ref|reference|account|case|item|page|step|no\.?|number|zip|postal|code|suite|unit|apt|box|km|miles?|items?)\s*#?\s*$/i

/**
 * One-time codes in a message's text, as a person would read them: 4–8 digits, or 4–10
 * uppercase letters and digits with at least one digit, announced by a word such as code, OTP,
 * PIN, passcode, verification or token (several languages) on the same line. Each such word
 * claims one code: the nearest candidate after it (within 60 characters), else the nearest
 * before it (within 40). In a short SMS (`onlyNumberCounts`), a 4–8 digit run that is the only
 * number of the text counts too. Years (1900–2099) count only right after the word ("PIN:
 * 2024"); prices, phone numbers, dates, times, decimals, and anything inside a URL or an email
 * address never. De-duplicated, in order of appearance. docs/links-and-codes.md has the table of
 * examples. Linear in the text's length (no backtracking patterns, one pass per keyword).
 */
export function findCodes(rawText: string, options: { onlyNumberCounts?: boolean } = {}): string[] {
  const text = blankAddresses(rawText.length > MAX_TEXT_LENGTH ? rawText.slice(0, MAX_TEXT_LENGTH) : rawText)
  const candidates: Candidate[] = []
  for (const match of text.matchAll(CANDIDATE)) {
    const token = match[0]
    const start = match.index
    const end = start + token.length
    const digitsOnly = /^[0-9]+$/.test(token)
    if (!digitsOnly && !hasDigitAndLetter(token)) continue
    if (digitsOnly && token.length > 8) continue
    if (GROUPED_BEFORE.test(text.slice(Math.max(0, start - 2), start)) || GROUPED_AFTER.test(text.slice(end, end + 2)))
      continue
    if (CURRENCY_AFTER.test(text.slice(end, end + 8))) continue
    candidates.push({ token, start, end })
  }
  const claimed = new Set<number>()
  if (candidates.length > 0) {
    for (const [kStart, kEnd] of keywordSpans(text)) {
      const after = firstFrom(candidates, kEnd)
      const next = candidates[after]
      if (
        next &&
        next.start - kEnd <= NEAR_BEFORE &&
        (sameLine(text, kEnd, next.start) || standsOnNextLine(text, kEnd, next))
      ) {
        // A year counts only right after the word: "PIN: 2024", "code is 2024", "código 2024".
        const direct = /^[\s:#.-]*(?:is|es|est|ist|é|lautet)?[\s:#-]*$/i.test(text.slice(kEnd, next.start))
        if (!isYear(next.token) || direct) claimed.add(after)
        continue
      }
      const before = candidates[firstFrom(candidates, kStart) - 1]
      if (
        before &&
        before.end <= kStart &&
        kStart - before.end <= NEAR_AFTER &&
        sameLine(text, before.end, kStart) &&
        !isYear(before.token)
      ) {
        claimed.add(firstFrom(candidates, kStart) - 1)
      }
    }
  }
  const codes = new Set<string>()
  for (const index of [...claimed].sort((a, b) => a - b)) codes.add(candidates[index].token)
  if (codes.size === 0 && options.onlyNumberCounts) {
    const numbers = text.match(/[0-9]+(?:[.,][0-9]+)*/g) ?? []
    const only = candidates.length === 1 ? candidates[0] : undefined
    if (
      numbers.length === 1 &&
      only &&
      /^[0-9]+$/.test(only.token) &&
      only.token === numbers[0] &&
      !isYear(only.token) &&
      !ONLY_NUMBER_BLOCKERS.test(text.slice(Math.max(0, only.start - 24), only.start))
    ) {
      codes.add(only.token)
    }
  }
  return [...codes]
}

/** What counts as a short SMS for the only-number rule: one GSM-7 segment. */
export const SHORT_SMS_LENGTH = 160
