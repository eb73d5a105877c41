import type { CapturedMessage } from '../../contract/captured-message.js'
import type { JournalEntry } from '../../contract/journal.js'
import { senderOf } from '../../domain/channels/readings.js'
import { keywordAction } from '../../domain/opt-outs.js'
import { displayKey } from '../../domain/plans.js'
import type { SandboxState } from '../../domain/sandbox.js'
import { fitCells, padCells, printable } from './cells.js'
import type { FooterContent } from './components/footer.js'
import { field, section } from './fields.js'
import { seg, type StyledLine } from './page.js'
import type { Action, Effect, KeyContext, OptOutRow, ReplyDraft } from './ui-state.js'

/**
 * What the terminal UI shows for QA (issue 33, item 3), beside the lists and pages it had: the
 * opt-outs page, each account's keys and plans, the webhook URL and signing secret on the help
 * page, the reply prompt, and the effects of the QA keys (reply, opt back in), run in-process.
 */

/** Each account's keys and plans: `test_pro · Pro`, for every place that names an account. */
export function accountLabels(sandbox: SandboxState): ReadonlyMap<string, string> {
  const labels = new Map<string, string[]>()
  for (const k of sandbox.keyUsage())
    labels.set(k.account, [...(labels.get(k.account) ?? []), `${displayKey(k.key)} · ${k.planName}`])
  return new Map([...labels].map(([account, keys]) => [account, keys.join(', ')]))
}

/** `acct_1 (test_pro · Pro)`. */
export function accountText(account: string | null, labels: ReadonlyMap<string, string>): string {
  if (account === null) return '—'
  const keys = labels.get(account)
  return keys ? `${account} (${keys})` : account
}

/** The opted-out numbers, oldest first, as the page lists them. */
export function optOutRows(sandbox: SandboxState): OptOutRow[] {
  return sandbox.optOuts.list().map(({ account, number, keyword, at }) => ({ account, number, keyword, at }))
}

/** The opt-outs page: one row per number, the selected one marked, and how to act on it. */
export function optOutsPageRows(
  rows: readonly OptOutRow[],
  index: number,
  width: number,
  labels: ReadonlyMap<string, string>,
): StyledLine[] {
  const out: StyledLine[] = [
    [
      seg(' OPT-OUTS ', { inverse: true, bold: true }),
      seg(
        `  ${rows.length} number${rows.length === 1 ? '' : 's'} opted out · a send to one is accepted (200 queued) and fails as opted out`,
        { dim: true },
      ),
    ],
    section('Number            Keyword   Account', width),
  ]
  if (rows.length === 0) {
    out.push([
      seg('  None. R on an SMS or WhatsApp message simulates a reply: STOP opts its number out.', { dim: true }),
    ])
    return out
  }
  rows.forEach((row, i) => {
    const selected = i === Math.min(index, rows.length - 1)
    out.push([
      seg(selected ? '› ' : '  ', { color: 'cyan', bold: true }),
      seg(padCells(printable(row.number), 18), { bold: selected, inverse: selected }),
      seg(padCells(printable(row.keyword), 10), { color: 'red' }),
      seg(fitCells(accountText(row.account, labels), Math.max(4, width - 30))),
    ])
  })
  out.push(
    [seg(' ')],
    [seg('x opts the selected number back in (as a START reply would) · Esc goes back', { dim: true })],
  )
  return out
}

/** The help page's facts about this sandbox: the accounts with their keys, and where webhooks go, signed how. */
export function sandboxFacts(sandbox: SandboxState, width: number): StyledLine[] {
  const labels = accountLabels(sandbox)
  const rows: StyledLine[] = [[seg('This sandbox', { bold: true, color: 'cyan' })]]
  for (const [account, keys] of labels) rows.push(...field('Account', `${account}: ${keys}`, width))
  const hooks = sandbox.webhooks
  if (hooks) {
    rows.push(
      ...field('Webhooks', `POST ${hooks.url}`, width),
      ...field('Secret', hooks.secret, width, { color: 'yellow' }),
    )
    rows.push(
      ...field(
        '',
        'Verify webhook-signature with this secret (Standard Webhooks); GET /__sandbox/webhooks shows it too.',
        width,
        { dim: true },
      ),
    )
  } else {
    rows.push(...field('Webhooks', 'none (start with --webhook-url URL)', width, { dim: true }))
  }
  rows.push([seg(' ')])
  return rows
}

/** The footer while a reply is typed. */
export function replyFooter(draft: ReplyDraft): FooterContent {
  return {
    kind: 'prompt',
    label: `Reply from ${printable(draft.from)}:`,
    text: draft.text,
    hint: 'Enter send · Esc cancel · STOP opts out, START back in',
  }
}

/** What a message gives the keys: who would reply, and the API request that sent it. */
export function messageKeyFacts(
  message: CapturedMessage,
  requests: readonly JournalEntry[],
): Pick<NonNullable<KeyContext['message']>, 'account' | 'party' | 'requestId'> {
  const party = message.direction === 'inbound' ? (senderOf(message) ?? message.to) : message.to
  return { account: message.account, party, requestId: requestOf(message, requests)?.id }
}

/** The API request that sent a message (never a webhook attempt about it), while the journal holds it. */
export function requestOf(message: CapturedMessage, requests: readonly JournalEntry[]): JournalEntry | undefined {
  if (message.direction === 'inbound') return undefined
  return requests.find((e) => e.kind === 'api' && e.message_id === message.message_id)
}

/** A reply's keyword as shown: `STOP (opt-out)`, `START (opt-in)`, or null for other text. */
export function keywordLabel(message: Pick<CapturedMessage, 'direction' | 'text'>): string | null {
  if (message.direction !== 'inbound') return null
  const action = keywordAction(message.text)
  if (action === null) return null
  return `${message.text.trim().toUpperCase()} (${action === 'opt_out' ? 'opt-out' : 'opt-in'})`
}

type Report = (action: Action) => void

/** Runs a QA effect on the sandbox, as the controls would, and reports what it did. */
export function runQaEffect(
  effect: Extract<Effect, { type: 'simulate-reply' | 'remove-opt-out' }>,
  sandbox: SandboxState,
  report: Report,
): void {
  try {
    if (effect.type === 'remove-opt-out') {
      const removed = sandbox.optOuts.remove(effect.account, effect.number)
      report({
        type: 'notice',
        notice: removed
          ? { text: `${effect.number} opted back in to ${effect.account}.`, tone: 'ok' }
          : { text: `${effect.number} was not opted out of ${effect.account}.`, tone: 'error' },
      })
      return
    }
    const result = sandbox.inbound({
      channel: effect.channel,
      account: effect.account,
      from: effect.from,
      text: effect.text,
    })
    const did =
      result.action === 'opt_out'
        ? ` ${effect.from} is opted out of ${effect.account} (O lists opt-outs).`
        : result.action === 'opt_in'
          ? ` ${effect.from} is opted back in.`
          : ''
    report({ type: 'notice', notice: { text: `Reply captured as ${result.message.message_id}.${did}`, tone: 'ok' } })
  } catch (error) {
    report({ type: 'notice', notice: { text: `Reply failed: ${(error as Error).message}`, tone: 'error' } })
  }
}
