/** @jsxImportSource preact */
/**
 * The Checks tab of a message (issue 35, item 5): `GET /__sandbox/messages/{id}/checks` as a
 * score, the checks grouped by category then severity, the per-client support of an email, and a
 * button that checks the links live. Every text of a report comes from the message (an excerpt,
 * a link, a parameter) or is about it: shown through `safeText`, never as markup. A check with a
 * `location` jumps to its line in the Source tab (`onLocate`).
 */
import { useEffect, useState } from 'preact/hooks'
import type { Check, CheckCategory, CheckReport, CheckSeverity, ClientSupport } from '../../../contract/checks.js'
import { safeText } from '../../../domain/safe-text.js'
import { call } from './api.js'
import { Shown } from './widgets.js'
import '../checks.css'

/** The categories in the order the tab shows them: what breaks a message first. The type check below keeps it whole. */
const CATEGORIES: readonly CheckCategory[] = [
  'links',
  'sender',
  'template',
  'encoding',
  'spam',
  'images',
  'accessibility',
  'size',
  'compatibility',
]
const SEVERITIES: readonly CheckSeverity[] = ['error', 'warning', 'info']
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const everyCategory: Same<CheckCategory, (typeof CATEGORIES)[number]> &
  Same<CheckSeverity, (typeof SEVERITIES)[number]> = true
void everyCategory

const CATEGORY_LABELS: Record<CheckCategory, string> = {
  compatibility: 'Client compatibility',
  links: 'Links',
  images: 'Images',
  accessibility: 'Accessibility',
  size: 'Size',
  spam: 'Spam',
  encoding: 'Encoding',
  sender: 'Sender',
  template: 'Template',
}

/** The checks of one category, errors first. */
export function groupChecks(checks: readonly Check[]): { category: CheckCategory; checks: Check[] }[] {
  return CATEGORIES.map((category) => ({
    category,
    checks: checks
      .filter((check) => check.category === category)
      .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity)),
  })).filter((group) => group.checks.length > 0)
}

/** The report of a message: fetched when the tab opens, again (live) when asked. */
function useReport(id: string) {
  const [state, setState] = useState<{ report: CheckReport | null; error: string | null; busy: boolean }>({
    report: null,
    error: null,
    busy: true,
  })
  const [live, setLive] = useState(false)
  useEffect(() => {
    const controller = new AbortController()
    setState((current) => ({ report: live ? current.report : null, error: null, busy: true }))
    call<CheckReport>(
      'GET',
      `/__sandbox/messages/${encodeURIComponent(id)}/checks${live ? '?links=live' : ''}`,
      undefined,
      controller.signal,
    )
      .then((report) => setState({ report, error: null, busy: false }))
      .catch((e: Error) => {
        if (e.name !== 'AbortError') setState((current) => ({ report: current.report, error: e.message, busy: false }))
      })
    return () => controller.abort()
  }, [id, live])
  useEffect(() => setLive(false), [id])
  return { ...state, live, checkLive: () => setLive(true) }
}

export function ChecksPanel({
  messageId,
  channel,
  onLocate,
}: {
  messageId: string
  channel: string
  onLocate?: (line: number) => void
}) {
  const { report, error, busy, live, checkLive } = useReport(messageId)
  if (!report) {
    return error ? (
      <p class="error" role="alert">
        The checks could not be read: {safeText(error)}
      </p>
    ) : (
      <p aria-busy="true">Checking…</p>
    )
  }
  const groups = groupChecks(report.checks)
  return (
    <div class="checks" aria-busy={busy}>
      <ChecksHead report={report} channel={channel} busy={busy} live={live} checkLive={checkLive} />
      {error ? (
        <p class="error" role="alert">
          {safeText(error)}
        </p>
      ) : null}
      {groups.length === 0 ? <p class="muted">Nothing found: this message passes every check.</p> : null}
      {groups.map((group) => (
        <CheckGroup key={group.category} {...group} onLocate={onLocate} />
      ))}
      {report.clients && report.clients.length > 0 ? <ClientTable clients={report.clients} /> : null}
    </div>
  )
}

/** The head of the tab: the score, the count of each severity, and (an email) the button that checks the links live. */
function ChecksHead(props: {
  report: CheckReport
  channel: string
  busy: boolean
  live: boolean
  checkLive: () => void
}) {
  const { report, channel, busy, live, checkLive } = props
  return (
    <div class="checks-head">
      <p
        class={`score score-${report.score >= 90 ? 'good' : report.score >= 60 ? 'fair' : 'poor'}`}
        data-testid="checks-score"
        aria-label={`Score ${report.score} out of 100`}
      >
        {report.score}
        <small>/100</small>
      </p>
      <ul class="check-counts" aria-label="Checks by severity">
        {SEVERITIES.map((severity) => (
          <li key={severity} class={`sev sev-${severity}`}>
            {report.counts[severity]}{' '}
            {severity === 'info' ? 'info' : report.counts[severity] === 1 ? severity : `${severity}s`}
          </li>
        ))}
      </ul>
      {channel === 'email' ? (
        <button
          type="button"
          class="small"
          onClick={checkLive}
          disabled={busy || report.live_links}
          title="Requests each link and image (HEAD, then GET) and reports 4xx, 5xx and unreachable ones"
        >
          {report.live_links ? 'Links checked live' : busy && live ? 'Checking links…' : 'Check live links'}
        </button>
      ) : null}
    </div>
  )
}

/** One category's checks, errors first. */
function CheckGroup({
  category,
  checks,
  onLocate,
}: {
  category: CheckCategory
  checks: Check[]
  onLocate?: (line: number) => void
}) {
  return (
    <section class="check-group" aria-labelledby={`checks-${category}`} data-category={category}>
      <h3 id={`checks-${category}`}>
        {CATEGORY_LABELS[category]} <span class="muted">({checks.length})</span>
      </h3>
      <ul class="check-list">
        {checks.map((check, i) => (
          <CheckItem key={i} check={check} onLocate={onLocate} />
        ))}
      </ul>
    </section>
  )
}

/** Only http(s) targets become links (a report's `url` or `link` is the message's own text). */
function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined
}

function CheckItem({ check, onLocate }: { check: Check; onLocate?: (line: number) => void }) {
  const { location } = check
  const more = check.url === undefined ? undefined : safeHref(check.url)
  return (
    <li class={`finding sev-${check.severity}`} data-check={check.id}>
      <div class="finding-line">
        <span class={`badge sev-${check.severity}`}>{check.severity}</span>{' '}
        <code class="finding-id">{safeText(check.id)}</code>
      </div>
      <p class="finding-message" dir="auto">
        {safeText(check.message)}
      </p>
      <CheckFacts check={check} />
      {location ? (
        <div class="check-where">
          {onLocate ? (
            <button type="button" class="link-button" onClick={() => onLocate(location.line)}>
              Line {location.line}, column {location.column}
            </button>
          ) : (
            <span>
              Line {location.line}, column {location.column}
            </span>
          )}
          <pre class="excerpt">{safeText(location.excerpt)}</pre>
        </div>
      ) : null}
      {more ? (
        <a href={more} target="_blank" rel="noopener noreferrer" class="check-more">
          Read more
        </a>
      ) : null}
    </li>
  )
}

/** What a check is about, besides its place in the source: link, status, character, parameter, clients, notes, spam score. */
function CheckFacts({ check }: { check: Check }) {
  const facts: [string, string][] = []
  if (check.link !== undefined) facts.push(['Link', check.link])
  if (check.status !== undefined) facts.push(['Status', String(check.status)])
  if (check.character !== undefined)
    facts.push([
      'Character',
      `${check.character}${check.position === undefined ? '' : ` at ${check.position}`}${check.replacement === undefined ? '' : ` → ${check.replacement}`}`,
    ])
  if (check.parameter !== undefined) facts.push(['Parameter', check.parameter])
  if (check.clients && check.clients.length > 0) facts.push(['Clients', check.clients.join(', ')])
  if (check.score !== undefined) facts.push(['Score', String(check.score)])
  if (facts.length === 0 && !check.notes?.length) return null
  return (
    <dl class="check-facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>
            <Shown text={value} />
          </dd>
        </div>
      ))}
      {check.notes?.map((note, i) => (
        <div key={`note-${i}`}>
          <dt>Note</dt>
          <dd dir="auto">{safeText(note)}</dd>
        </div>
      ))}
    </dl>
  )
}

/** Each client's support of the features the email uses; the clients that count for the score marked. */
function ClientTable({ clients }: { clients: readonly ClientSupport[] }) {
  const sorted = [...clients].sort((a, b) => a.supported - b.supported)
  return (
    <section class="check-group" aria-labelledby="checks-clients">
      <h3 id="checks-clients">Support per client</h3>
      <table class="clients">
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col">Supported</th>
            <th scope="col">Counts for the score</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((client) => (
            <tr key={client.client}>
              <td>
                <Shown text={client.client} />
              </td>
              <td>
                <meter min={0} max={100} low={60} high={90} optimum={100} value={client.supported} aria-hidden="true" />{' '}
                {Math.round(client.supported)}%
              </td>
              <td>{client.counted ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
