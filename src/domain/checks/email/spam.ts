import type { Check } from '../../../contract/checks.js'
import { spamdExchange, SpamdError, type SpamdExchangeOptions } from './spamc.js'

export { emailToMime, type MimeSource } from './mime.js'

/**
 * Spam checks from a real SpamAssassin `spamd` (issue 35), as Mailpit does: the email as a MIME
 * message goes to spamd with the SPAMC `REPORT` command; its score becomes `spam.score` (an error
 * at or over spamd's threshold) and each rule hit a `spam.<RULE>` check (a warning when the rule
 * adds more than 0.5 points, info otherwise, negative rules included). See docs/decisions/spam-checks.md.
 */

/** Where a SpamAssassin `spamd` listens (`--spamassassin HOST:PORT`). */
export interface SpamdTarget {
  host: string
  port: number
}

/** spamd's default port. */
export const SPAMD_PORT = 783

/** A rule score above which a rule hit is a warning. */
export const SPAM_RULE_WARNING_SCORE = 0.5

/** `HOST:PORT`, `HOST` (port 783), `[::1]:PORT`; throws an Error saying what is expected. */
export function parseSpamdTarget(value: string): SpamdTarget {
  const match = /^\s*(?:\[([^\]]+)\]|([^:\s[\]]+))(?::(\d{1,5}))?\s*$/.exec(value)
  const port = match?.[3] === undefined ? SPAMD_PORT : Number(match[3])
  if (!match || port < 1 || port > 65535)
    throw new Error(`Invalid SpamAssassin address "${value}": expected HOST:PORT, for example 127.0.0.1:783`)
  return { host: match[1] ?? match[2]!, port }
}

/** The one check of a report without `--spamassassin`: how to enable spam checks. */
export function spamDisabledCheck(): Check {
  return {
    id: 'spam.disabled',
    severity: 'info',
    category: 'spam',
    message:
      'No spam check: give sendbox a SpamAssassin spamd with --spamassassin HOST:PORT (config "spamassassin", env SENDBOX_SPAMASSASSIN). ' +
      'On Debian: apt-get install --no-install-recommends spamassassin spamc spamd, then spamd --listen 127.0.0.1:783 --allowed-ips 127.0.0.1 -u nobody -x -L -s stderr.',
  }
}

export interface SpamRule {
  name: string
  score: number
  description: string
}

export interface SpamdReport {
  spam: boolean
  score: number
  threshold: number
  rules: SpamRule[]
}

/** The rules table of a REPORT body (` pts rule name  description`, then `---- ----`, then rows; descriptions may wrap). */
export function parseReportRules(body: string): SpamRule[] {
  const lines = body.split(/\r?\n/)
  const start = lines.findIndex((line) => /^-{3,}\s+-{3,}/.test(line.trim()))
  if (start < 0) return []
  const rules: SpamRule[] = []
  for (const line of lines.slice(start + 1)) {
    const row = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s*(.*)$/.exec(line)
    if (row) rules.push({ score: Number(row[1]) || 0, name: row[2]!, description: row[3]!.trim() })
    else if (/^\s{10,}\S/.test(line) && rules.length > 0) rules.at(-1)!.description += ` ${line.trim()}`
    else if (line.trim() === '') continue
    else break
  }
  return rules
}

/** spamd's answer: `SPAMD/1.1 0 EX_OK`, headers (`Spam: True ; 7.2 / 5.0`), a blank line, the report. */
export function parseSpamdAnswer(answer: string): SpamdReport {
  const end = answer.search(/\r?\n\r?\n/)
  const head = (end < 0 ? answer : answer.slice(0, end)).split(/\r?\n/)
  const body = end < 0 ? '' : answer.slice(end).replace(/^\r?\n\r?\n/, '')
  const status = /^SPAMD\/[\d.]+\s+(\d+)\s*(.*)$/.exec(head[0] ?? '')
  if (!status) throw new Error(`not a spamd answer: "${(head[0] ?? '').slice(0, 80)}"`)
  if (status[1] !== '0') throw new Error(`spamd refused the message: ${status[1]} ${status[2]}`)
  const verdict = head.map((line) => /^Spam:\s*(\w+)\s*;\s*(-?[\d.]+)\s*\/\s*(-?[\d.]+)/i.exec(line)).find(Boolean)
  if (!verdict) throw new Error('spamd answered without a Spam: header')
  return {
    spam: /^(true|yes)$/i.test(verdict[1]!),
    score: Number(verdict[2]),
    threshold: Number(verdict[3]),
    rules: parseReportRules(body),
  }
}

/** A report as checks: the score, then each rule hit (highest score first). */
export function spamReportChecks(report: SpamdReport): Check[] {
  const over = report.score >= report.threshold
  const score: Check = {
    id: 'spam.score',
    severity: over ? 'error' : 'info',
    category: 'spam',
    message: `SpamAssassin score ${report.score.toFixed(1)} (threshold ${report.threshold.toFixed(1)})${over ? ': the email would be filed as spam; fix the rules below' : ''}`,
    score: report.score,
  }
  const rules = [...report.rules]
    .sort((a, b) => b.score - a.score)
    .map((rule): Check => ({
      id: `spam.${rule.name}`,
      severity: rule.score > SPAM_RULE_WARNING_SCORE ? 'warning' : 'info',
      category: 'spam',
      message: `SpamAssassin rule ${rule.name} (${rule.score > 0 ? '+' : ''}${rule.score}): ${rule.description || 'no description'}`,
      score: rule.score,
    }))
  return [score, ...rules]
}

/** The SPAMC 1.5 request for a message. */
export function spamcRequest(mime: string, command: 'REPORT' | 'SYMBOLS' = 'REPORT'): Uint8Array {
  const body = new TextEncoder().encode(mime)
  const head = new TextEncoder().encode(
    `${command} SPAMC/1.5\r\nContent-length: ${body.length}\r\nUser: nobody\r\n\r\n`,
  )
  const request = new Uint8Array(head.length + body.length)
  request.set(head)
  request.set(body, head.length)
  return request
}

export const SPAMD_DEFAULTS: SpamdExchangeOptions = {
  timeoutMs: 10_000,
  connectTimeoutMs: 3_000,
  maxBytes: 1024 * 1024,
}

function unavailable(target: SpamdTarget, why: string): Check {
  return {
    id: 'spam.unavailable',
    severity: 'warning',
    category: 'spam',
    message: `SpamAssassin at ${target.host}:${target.port} could not score the email: ${why}. Is spamd running and does it allow this address (--allowed-ips)?`,
  }
}

/**
 * Spam checks from a real `spamd` (issue 35). Without a target the report carries one `info`
 * check of category `spam` saying how to enable it; an unreachable spamd is one warning.
 *
 * @param mime the email as a MIME message (see `emailToMime`)
 */
export async function spamChecks(
  mime: string,
  target: SpamdTarget | undefined,
  options: Partial<SpamdExchangeOptions> = {},
): Promise<Check[]> {
  if (!target) return [spamDisabledCheck()]
  try {
    const answer = await spamdExchange(target.host, target.port, spamcRequest(mime), { ...SPAMD_DEFAULTS, ...options })
    return spamReportChecks(parseSpamdAnswer(new TextDecoder().decode(answer)))
  } catch (error) {
    return [unavailable(target, error instanceof SpamdError || error instanceof Error ? error.message : String(error))]
  }
}
