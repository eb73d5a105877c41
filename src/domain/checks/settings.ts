import type { CheckReport } from '../../contract/checks.js'
import type { CapturedMessage } from '../../contract/captured-message.js'
import type { HtmlChecker } from './email/checks.js'
import type { SpamdTarget } from './email/spam.js'
import { CheckReports, type ReportRequest } from './reports.js'
import { ApiError } from '../errors.js'

/** The sandbox options of checks (issue 35): `createSandbox({ emailClients, spamassassin })`. */
export interface CheckSandboxOptions {
  /**
   * The email clients whose compatibility counts for the score (`--email-clients`): client ids or
   * families, like `['outlook', 'gmail.desktop-webmail']`, or one comma-separated string. Default:
   * every client.
   */
  emailClients?: readonly string[] | string
  /** A SpamAssassin `spamd` that scores every checked email: `'HOST:PORT'` or `{ host, port }` (`--spamassassin`). */
  spamassassin?: string | SpamdTarget
  /** Where email HTML checks run. The `Sandbox` of `sendbox` passes a worker thread on Node; default in-process. */
  htmlChecker?: HtmlChecker
  /** Checks waiting their turn at most (4 run at once); past it, 503 `too_many_clients`. Default 100. */
  maxQueuedChecks?: number
}

/** `HOST:PORT` (`[::1]:783` for IPv6) as a spamd target; a TypeError naming the setting otherwise. */
export function parseSpamdTarget(value: string | SpamdTarget): SpamdTarget {
  if (typeof value !== 'string') return value
  const match = /^(?:\[([^\]]+)\]|([^:\s]+)):([0-9]{1,5})$/.exec(value.trim())
  const port = Number(match?.[3])
  if (!match || port < 1 || port > 65535)
    throw new TypeError(`spamassassin must be HOST:PORT, like "127.0.0.1:783" (got ${JSON.stringify(value)}).`)
  return { host: match[1] ?? match[2], port }
}

/** The email clients as a list (a comma-separated string split, blanks dropped, lower-cased). */
export function parseEmailClients(value: readonly string[] | string | undefined): string[] {
  const list = typeof value === 'string' ? value.split(',') : [...(value ?? [])]
  return list.map((client) => client.trim().toLowerCase()).filter((client) => client !== '')
}

/** The sandbox's check reports, configured from its options. */
export function createCheckReports(
  outbox: { peek(id: string): CapturedMessage | undefined },
  now: () => number,
  options: CheckSandboxOptions,
): CheckReports {
  const emailClients = parseEmailClients(options.emailClients)
  const spamassassin = options.spamassassin === undefined ? undefined : parseSpamdTarget(options.spamassassin)
  const htmlChecker = options.htmlChecker
  return new CheckReports({
    peek: (id) => outbox.peek(id),
    checkOptions: () => ({ emailClients, spamassassin, htmlChecker, now }),
    maxQueued: options.maxQueuedChecks,
  })
}

/** `sandbox.checks(…)`: the report of a message given as itself or its id; rejects with 404 for an unknown id. */
export async function reportFor(
  outbox: { peek(id: string): CapturedMessage | undefined },
  reports: CheckReports,
  messageOrId: CapturedMessage | string,
  request: ReportRequest,
): Promise<CheckReport> {
  const id = typeof messageOrId === 'string' ? messageOrId : messageOrId.message_id
  const message = outbox.peek(id)
  if (!message)
    throw new ApiError(
      'not_found',
      `No captured message with id "${id}". It may have been cleared or evicted by the outbox cap.`,
    )
  return reports.report(message, request)
}

/** What `sandbox.checks(…)` takes: a captured message or its id, and whether to check links live or redo the report. */
export type ChecksRequest = ReportRequest
export type { CheckReport, CheckReports }
