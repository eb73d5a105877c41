/**
 * Why a link may not go where it reads (issue 27, N9), for the web inbox's Links tab. A link is
 * stored as its URL serialisation, so a look-alike host shows as punycode (`xn--`) and a bidi
 * override as `%E2%80%AE`; what is left to flag is what a person could misread.
 */
export function linkWarnings(link: string): string[] {
  const warnings: string[] = []
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return ['not a URL']
  }
  if (url.username !== '' || url.password !== '') warnings.push(`the part before "@" is not the host: it goes to ${url.hostname}`)
  if (url.hostname.split('.').some((label) => label.startsWith('xn--'))) warnings.push('the host has non-Latin or look-alike letters (punycode)')
  if (/%E2%80%A[A-E]|%E2%81%A[6-9]|%E2%80%8[EF]|%D8%9C/i.test(link) || /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(link)) warnings.push('it holds a bidi control, which can reorder how it reads')
  return warnings
}
