import type { Check, ClientSupport } from '../../../contract/checks.js'
import type { EmailMessage } from '../../../contract/captured-message.js'
import { finding } from '../rules.js'
import { compatibilityChecks } from './compatibility.js'
import { liveLinkChecks } from './live-links.js'
import { emailToMime as toMime } from './mime.js'
import { spamChecks, type SpamdTarget } from './spam.js'
import { staticEmailChecks } from './static.js'

/** What an email's HTML checks give: findings, and each client's support of the features used. */
export interface HtmlCheckResult {
  checks: Check[]
  clients: ClientSupport[]
}

/**
 * The CPU-heavy part of an email's checks: the static pass and client compatibility, both pure
 * functions of the HTML. In-process by default; the standalone server runs it on a worker thread
 * (src/transports/check-worker.ts) so a 1 MiB email never stalls the event loop.
 */
export type HtmlChecker = (html: string, emailClients: readonly string[]) => Promise<HtmlCheckResult>

/** {@link HtmlChecker} on the calling thread. */
export const inlineHtmlChecker: HtmlChecker = async (html, emailClients) => {
  const found = await staticEmailChecks(html)
  const compatibility = compatibilityChecks(html, emailClients)
  return { checks: [...found, ...compatibility.checks], clients: compatibility.clients }
}

/** How one email is checked: the HTML checker, the clients that count, spamd, and whether links are requested. */
export interface EmailCheckOptions {
  htmlChecker: HtmlChecker
  emailClients: readonly string[]
  spamassassin: SpamdTarget | undefined
  liveLinks: boolean
  signal?: AbortSignal
}

/** The note a report carries when no spamd is configured. */
export function spamNotConfigured(): Check {
  return finding(
    'spam.not-configured',
    'No spam check ran: start sendbox with `--spamassassin HOST:PORT` (config `spamassassin`, env SENDBOX_SPAMASSASSIN) pointing at a SpamAssassin `spamd`, and the report carries its score and rules.',
  )
}

/** Every check of an email: HTML (static and compatibility), spam, and live links when asked. */
export async function emailChecks(message: EmailMessage, options: EmailCheckOptions): Promise<HtmlCheckResult> {
  const html = options.htmlChecker(message.email.html, options.emailClients)
  const spam =
    options.spamassassin === undefined
      ? Promise.resolve([spamNotConfigured()])
      : spamChecks(toMime(message), options.spamassassin)
  const urls = [...new Set([...message.links, ...message.images])]
  const live = options.liveLinks ? liveLinkChecks(urls, { signal: options.signal }) : Promise.resolve([])
  const [found, spamFound, liveFound] = await Promise.all([html, spam, live])
  return { checks: [...found.checks, ...liveFound, ...spamFound], clients: found.clients }
}
