/**
 * Why a link may not go where it reads (issue 27, N9): what makes a link in a captured message worth a second look before a person clicks it: the
 * tricks phishing uses to make one address look like another. Pure functions, no DOM: the web
 * inbox's Links tab shows each finding as a badge with its explanation as title text.
 *
 * Links arrive serialized (`new URL(x).href`, see src/domain/extract.ts): the host is lower-case
 * ASCII (an international name as punycode), and bidi controls in the path or query are
 * percent-encoded. So the checks read the serialization, decoding punycode for the script check.
 */

/** One reason a link is suspicious: a short label for the badge and a sentence for its title. */
export interface LinkWarning {
  kind: 'userinfo' | 'punycode' | 'mixed-script' | 'bidi'
  label: string
  explanation: string
}

/** Bidi controls as UTF-8 percent-encoded in a serialized URL (U+200E/F, U+202A–E, U+2066–9, U+061C), or raw. */
const BIDI = /%E2%80%8[EF]|%E2%80%A[A-E]|%E2%81%A[6-9]|%D8%9C|[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/i

/** The scripts a host's letters are checked against (a label mixing two of them is a homograph trick). */
const SCRIPTS: Array<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
]

/** Scripts of the letters of `label` (digits, hyphens and marks belong to none). */
export function scriptsOf(label: string): string[] {
  const found = new Set<string>()
  for (const char of label) {
    if (!/\p{L}/u.test(char)) continue
    const script = SCRIPTS.find(([, pattern]) => pattern.test(char))
    found.add(script ? script[0] : 'Other')
  }
  return [...found]
}

/** Mixing these with Han is how Japanese and Korean are written, not a trick. */
const CJK_MIXES = new Set(['Han', 'Hiragana', 'Katakana', 'Hangul'])

function isMixed(scripts: string[]): boolean {
  if (scripts.length < 2) return false
  return !scripts.every((s) => CJK_MIXES.has(s) || s === 'Latin') || !scripts.some((s) => CJK_MIXES.has(s))
}

/** RFC 3492 punycode decoding of one label (without `xn--`); null when it is not valid punycode. */
export function decodePunycode(input: string): string | null {
  const base = 36,
    tMin = 1,
    tMax = 26,
    skew = 38,
    damp = 700
  let n = 128,
    i = 0,
    bias = 72
  const basic = input.lastIndexOf('-')
  const output = basic > 0 ? [...input.slice(0, basic)].map((c) => c.codePointAt(0)!) : []
  if (output.some((c) => c >= 0x80)) return null
  const adapt = (delta: number, points: number, first: boolean) => {
    delta = first ? Math.floor(delta / damp) : delta >> 1
    delta += Math.floor(delta / points)
    let k = 0
    for (; delta > ((base - tMin) * tMax) >> 1; k += base) delta = Math.floor(delta / (base - tMin))
    return k + Math.floor(((base - tMin + 1) * delta) / (delta + skew))
  }
  for (let at = basic > 0 ? basic + 1 : 0; at < input.length;) {
    const old = i
    for (let w = 1, k = base; ; k += base) {
      if (at >= input.length) return null
      const c = input.charCodeAt(at++)
      const digit = c >= 48 && c < 58 ? c - 22 : c >= 65 && c < 91 ? c - 65 : c >= 97 && c < 123 ? c - 97 : base
      if (digit >= base) return null
      i += digit * w
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
      if (digit < t) break
      w *= base - t
      if (i > 0x10ffff * 64) return null
    }
    bias = adapt(i - old, output.length + 1, old === 0)
    n += Math.floor(i / (output.length + 1))
    i %= output.length + 1
    if (n > 0x10ffff) return null
    output.splice(i++, 0, n)
  }
  return String.fromCodePoint(...output)
}

/** The host as a person reads it: each `xn--` label decoded. */
export function unicodeHost(host: string): string {
  return host
    .split('.')
    .map((label) => (label.startsWith('xn--') ? (decodePunycode(label.slice(4)) ?? label) : label))
    .join('.')
}

/** Why `link` may not go where it reads, as sentences; `['not a URL']` when it does not parse. */
export function linkWarnings(link: string): string[] {
  if (!URL.canParse(link)) return ['not a URL']
  return linkFindings(link).map((finding) => finding.explanation)
}

/** Why `link` deserves a second look, each with a badge label; [] when nothing stands out (or it is not a URL). */
export function linkFindings(link: string): LinkWarning[] {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return []
  }
  const warnings: LinkWarning[] = []
  if (url.username !== '' || url.password !== '') {
    warnings.push({
      kind: 'userinfo',
      label: 'user@host',
      explanation: `the part before "@" is not the host: it goes to ${url.hostname}`,
    })
  }
  const labels = url.hostname.split('.')
  if (labels.some((label) => label.startsWith('xn--'))) {
    warnings.push({
      kind: 'punycode',
      label: 'punycode',
      explanation: 'the host has non-Latin or look-alike letters (punycode)',
    })
  }
  const mixed = labels
    .map((label) => (label.startsWith('xn--') ? (decodePunycode(label.slice(4)) ?? '') : label))
    .find((label) => isMixed(scriptsOf(label)))
  if (mixed !== undefined) {
    warnings.push({
      kind: 'mixed-script',
      label: 'mixed scripts',
      explanation: `the host mixes scripts (${scriptsOf(mixed).join(' and ')} in "${mixed}" of ${unicodeHost(url.hostname)}): letters that look alike but are not`,
    })
  }
  if (BIDI.test(link)) {
    warnings.push({
      kind: 'bidi',
      label: 'bidi',
      explanation: 'it holds a bidi control, which can reorder how it reads',
    })
  }
  return warnings
}
