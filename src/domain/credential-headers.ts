/**
 * Which headers carry a credential (issue 36, R16): one rule, read wherever headers are kept or
 * shown (the journal, the store, both UIs). A name that says it is a key, a token, a secret, a
 * cookie or an authorization is masked: `X-Api-Key`, `X-Auth-Token`, `X-Client-Secret`,
 * `Cookie`, `Authorization`, `Proxy-Authorization`.
 *
 * @example
 * isCredentialHeader('X-Api-Key') // true
 * isCredentialHeader('Content-Type') // false
 */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase()
  return (
    lower === 'cookie' ||
    lower === 'set-cookie' ||
    lower.endsWith('authorization') ||
    lower.endsWith('-key') ||
    lower.endsWith('-token') ||
    lower.includes('secret') ||
    lower.includes('password')
  )
}
