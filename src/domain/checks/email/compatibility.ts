import type { Check, ClientSupport } from '../../../contract/checks.js'

/**
 * Client compatibility of an email's HTML against caniemail's data (issue 35). STUB: the engine
 * lands from the checks-engines work; the signature is the agreed interface.
 *
 * @param html the email's HTML as sent
 * @param clients the client ids that count for the score (`--email-clients`); all when empty
 */
export function compatibilityChecks(html: string, clients: readonly string[]): { checks: Check[]; clients: ClientSupport[] } {
  void html
  void clients
  return { checks: [], clients: [] }
}
