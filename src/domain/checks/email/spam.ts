import type { Check } from '../../../contract/checks.js'

/** Where a SpamAssassin `spamd` listens (`--spamassassin HOST:PORT`). */
export interface SpamdTarget {
  host: string
  port: number
}

/**
 * Spam checks from a real `spamd` (issue 35). STUB: the engine lands from the checks-engines work.
 * Without a target the report carries one `info` check of category `spam` saying how to enable it.
 *
 * @param mime the email as a MIME message (see `toMime`)
 */
export async function spamChecks(mime: string, target: SpamdTarget | undefined): Promise<Check[]> {
  void mime
  void target
  return []
}
