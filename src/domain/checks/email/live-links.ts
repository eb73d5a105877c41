import type { Check } from '../../../contract/checks.js'

/**
 * Live link checks (issue 35, `?links=live`). STUB: the engine lands from the checks-engines work.
 * Requests each distinct http(s) URL (HEAD, then GET when refused), at most 8 at once, 5 s each,
 * 5 redirects, no credentials, bodies not kept; one check per broken or unreachable URL.
 */
export async function liveLinkChecks(urls: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Check[]> {
  void urls
  void options
  return []
}
