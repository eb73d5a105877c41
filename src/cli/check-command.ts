/**
 * `sendbox check` (issue 35): checks an email template's HTML (a file, or `-` for stdin) or an SMS
 * text without sending it, prints the report, and exits 1 when a check at or above `--fail-on`
 * (default `error`) is found, 0 otherwise, 2 on a usage error. So a team checks its templates in CI.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import type { CheckReport } from '../contract/checks.js'
import type { CapturedMessage } from '../contract/captured-message.js'
import { envOf } from '../contract/settings.js'
import { checkMessage } from '../domain/checks/index.js'
import { parseEmailClients, parseSpamdTarget } from '../domain/checks/settings.js'
import { linksInText, loadHtmlTools, renderEmail } from '../domain/extract.js'
import { printable } from '../domain/safe-text.js'
import { encodeSms } from '../domain/sms-encoding.js'
import { failingChecks } from '../matchers-checks.js'
import type { CliIo } from './serve.js'

export const CHECK_HELP = [
  "Usage: sendbox check FILE.html [flags]       check an email's HTML (FILE, or - for stdin)",
  '       sendbox check --channel sms --text TEXT [--from SENDER] [--to +NUMBER]',
  '',
  'Prints the check report (docs/checks.md) and exits 1 when a check at or above --fail-on is found, 0 otherwise, 2 on a usage error.',
  '  --fail-on error|warning    the lowest severity that fails (default error)',
  '  --json                     print the report as JSON',
  '  --subject TEXT             the email\'s subject (default "(check)")',
  '  --email-clients LIST       clients whose compatibility counts for the score (env SENDBOX_EMAIL_CLIENTS)',
  '  --spamassassin HOST:PORT   score the email with this spamd (env SENDBOX_SPAMASSASSIN)',
].join('\n')

const FLAGS = {
  channel: { type: 'string' },
  text: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  subject: { type: 'string' },
  'fail-on': { type: 'string' },
  json: { type: 'boolean' },
  'email-clients': { type: 'string' },
  spamassassin: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

class CheckUsageError extends Error {}

function base(id: string, to: string) {
  return {
    message_id: id,
    direction: 'outbound',
    account: 'check',
    plan: 'pro',
    key: 'check',
    to,
    request: {},
    status: 'queued',
    reason: null,
    status_history: [],
    created_at: new Date().toISOString(),
    codes: [],
  }
}

async function messageOf(
  values: Record<string, string | boolean | undefined>,
  file: string | undefined,
  stdin: () => string,
): Promise<CapturedMessage> {
  const channel = (values.channel as string | undefined) ?? 'email'
  if (channel === 'sms') {
    if (typeof values.text !== 'string' || file !== undefined)
      throw new CheckUsageError('an SMS is checked with --text TEXT (and no FILE)')
    const text = values.text
    return {
      ...base('check_sms', (values.to as string | undefined) ?? '+447700900000'),
      channel: 'sms',
      text,
      links: linksInText(text),
      images: [],
      sms: { text, from: (values.from as string | undefined) ?? null, ...encodeSms(text) },
    } as CapturedMessage
  }
  if (channel !== 'email') throw new CheckUsageError(`--channel must be email or sms (got "${channel}")`)
  if (file === undefined) throw new CheckUsageError("name the email's HTML file, or - to read it from stdin")
  let html: string
  try {
    html = file === '-' ? stdin() : readFileSync(file, 'utf8')
  } catch (error) {
    throw new CheckUsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    )
  }
  await loadHtmlTools()
  const { text, links, images } = renderEmail(html)
  const from = typeof values.from === 'string' ? { email: values.from, name: null } : null
  return {
    ...base('check_email', (values.to as string | undefined) ?? 'someone@example.com'),
    channel: 'email',
    text,
    links,
    images,
    email: { from, subject: (values.subject as string | undefined) ?? '(check)', html },
  } as CapturedMessage
}

/** The report for a terminal: a header, then one line per check (sanitized: it quotes the message). */
export function reportText(report: CheckReport, source: string): string {
  const { error, warning, info } = report.counts
  const lines = [
    `${printable(source)}: score ${report.score}/100 — ${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info`,
  ]
  for (const c of report.checks) {
    const where = c.location
      ? ` ${c.location.line}:${c.location.column}`
      : c.position !== undefined
        ? ` @${c.position}`
        : ''
    lines.push(`  ${c.severity.padEnd(7)} ${c.id}${where}  ${printable(c.message)}`)
  }
  return `${lines.join('\n')}\n`
}

/** Runs `sendbox check` with its arguments (after `check`); resolves with the exit code. */
export async function runCheck(
  argv: string[],
  io: CliIo,
  stdin: () => string = () => readFileSync(0, 'utf8'),
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true })
    if (values.help) return (io.stdout.write(`${CHECK_HELP}\n`), 0)
    if (positionals.length > 1) throw new CheckUsageError(`one file at a time (got ${positionals.length})`)
    const failOn = values['fail-on'] ?? 'error'
    if (failOn !== 'error' && failOn !== 'warning')
      throw new CheckUsageError(`--fail-on must be error or warning (got "${failOn}")`)
    const spamd = values.spamassassin ?? io.env[envOf('spamassassin')!]
    const message = await messageOf(values, positionals[0], stdin)
    const report = await checkMessage(message, {
      emailClients: parseEmailClients(values['email-clients'] ?? io.env[envOf('email-clients')!]),
      spamassassin: spamd ? parseSpamdTarget(spamd) : undefined,
    })
    io.stdout.write(
      values.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : reportText(report, positionals[0] === '-' ? 'stdin' : (positionals[0] ?? 'sms')),
    )
    return failingChecks(report, { severity: failOn }).length > 0 ? 1 : 0
  } catch (error) {
    if (
      error instanceof CheckUsageError ||
      error instanceof TypeError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr.write(`sendbox check: ${(error as Error).message.split('\n')[0]}. Run \`sendbox check --help\`.\n`)
      return 2
    }
    throw error
  }
}
