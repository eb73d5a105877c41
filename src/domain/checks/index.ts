import type { CheckReport, ClientSupport, Check } from '../../contract/checks.js'
import type { CapturedMessage, Channel, MessageOf } from '../../contract/captured-message.js'
import { emailChecks, inlineHtmlChecker, type HtmlChecker } from './email/checks.js'
import type { SpamdTarget } from './email/spam.js'
import { reportOf } from './score.js'
import { smsChecks } from './sms.js'
import { whatsappChecks } from './whatsapp.js'

/**
 * Checks (issue 35): a report judging one captured message, a pure function of the message and
 * the options (the network only for spamd and live links, when configured or asked). The sandbox
 * keeps reports (reports.ts); HTTP, the client, the matcher, MCP, the UIs and `sendbox check` all
 * serve this one shape (src/contract/checks.ts). docs/checks.md lists the rules.
 */

/** How to check a message. */
export interface CheckOptions {
  /** `'live'`: request each distinct link and image (HEAD, then GET) and add the broken ones. */
  links?: 'live' | 'static'
  /** The email clients that count for the score (`--email-clients`); empty or absent: all. */
  emailClients?: readonly string[]
  /** A SpamAssassin `spamd` (`--spamassassin HOST:PORT`); absent: one info check says how to enable it. */
  spamassassin?: SpamdTarget
  /** Where the email HTML checks run (a worker thread in the standalone server); default in-process. */
  htmlChecker?: HtmlChecker
  /** When the report is made (default `Date.now`). */
  now?: () => number
  signal?: AbortSignal
}

type ChannelChecker<C extends Channel> = (
  message: MessageOf<C>,
  options: CheckOptions,
) => Promise<{ checks: Check[]; clients?: ClientSupport[] }>

/** One checker per channel: a channel missing here is a compile error. */
export const CHANNEL_CHECKERS: { [C in Channel]: ChannelChecker<C> } = {
  email: (message, options) =>
    emailChecks(message, {
      htmlChecker: options.htmlChecker ?? inlineHtmlChecker,
      emailClients: options.emailClients ?? [],
      spamassassin: options.spamassassin,
      liveLinks: options.links === 'live',
      signal: options.signal,
    }),
  sms: async (message) => ({ checks: smsChecks(message) }),
  whatsapp: async (message) => ({ checks: whatsappChecks(message) }),
}

/**
 * The check report of one captured message.
 *
 * @example
 * const report = await checkMessage(sandbox.outbox.get(id)!, { emailClients: ['outlook', 'gmail'] })
 * report.checks.filter((c) => c.severity === 'error')
 */
export async function checkMessage(message: CapturedMessage, options: CheckOptions = {}): Promise<CheckReport> {
  const checker = CHANNEL_CHECKERS[message.channel] as ChannelChecker<Channel>
  const { checks, clients } = await checker(message as MessageOf<Channel>, options)
  return reportOf({
    messageId: message.message_id,
    channel: message.channel,
    checks,
    clients,
    emailClients: options.emailClients ?? [],
    checkedAt: (options.now ?? Date.now)(),
    liveLinks: options.links === 'live',
  })
}

export { RULES, finding, type RuleId } from './rules.js'
export { scoreOf, countsOf, SCORE_WEIGHTS, COUNTED_PER_RULE } from './score.js'
export { inlineHtmlChecker, type HtmlChecker, type HtmlCheckResult } from './email/checks.js'
export type { SpamdTarget } from './email/spam.js'
