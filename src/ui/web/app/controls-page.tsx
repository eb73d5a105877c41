/** @jsxImportSource preact */
/** Sandbox controls: clear, reset (scoped), faults, and the keys with their live rate-limit use. */
import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { onSandboxEvent, reloadAll } from './state.js'
import type { z } from 'zod'
import { ACCOUNT_RESET_SCOPES, RESET_SCOPES as CONTRACT_RESET_SCOPES } from '../../../contract/constants.js'
import type { faultSchema } from '../../../contract/controls.js'
import { RESET_SCOPE_LABELS, resetScopeText } from '../../../contract/reset-scopes.js'
import type { KeyUsage } from './types.js'
import { confirmAction } from './widgets.js'
import { accountLabels, OptOutsCard } from './qa-parts.js'
import { useWhoami } from './who.js'

/** `all`, then the contract's scopes (a team token: those of its own accounts). */
const RESET_SCOPES = ['all', ...CONTRACT_RESET_SCOPES] as const
const TEAM_RESET_SCOPES = ['all', ...ACCOUNT_RESET_SCOPES] as const

/** A fault as `GET /__sandbox/faults` answers it: the contract's schema, not a copy of it. */
type Fault = z.infer<typeof faultSchema>

function useKeys(): { keys: KeyUsage[]; error: string | null } {
  const [keys, setKeys] = useState<KeyUsage[]>([])
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const load = () =>
      call<{ data?: KeyUsage[] } | KeyUsage[]>('GET', '/__sandbox/keys')
        .then((answer) => {
          setKeys(Array.isArray(answer) ? answer : (answer.data ?? []))
          setError(null)
        })
        .catch((e: Error) => setError(e.message))
    void load()
    // Requests use the rate limit: refresh at most once a second while they arrive, and every 5 s (windows slide).
    const stop = onSandboxEvent((event) => {
      if (event.type !== 'request' && event.type !== 'reset') return
      timer ??= setTimeout(() => {
        timer = undefined
        void load()
      }, 1000)
    })
    const interval = setInterval(load, 5000)
    return () => {
      stop()
      clearInterval(interval)
      clearTimeout(timer)
    }
  }, [])
  return { keys, error }
}

/** Who the page acts for: a team token changes its own accounts only, and the page says so. */
interface Scope {
  team: { name: string | null; accounts: readonly string[] } | null
  /** "every account", or "the accounts of qa (acct_1, acct_2)". */
  yours: string
}

/** Runs a confirmed action, then says how it went and reloads what it changed. */
type Run = (title: string, body: string, action: string, doIt: () => Promise<unknown>, done: string) => Promise<void>

export function ControlsPage() {
  const [result, setResult] = useState<string | null>(null)
  const [faults, setFaults] = useState<Fault[]>([])
  const { keys, error: keysError } = useKeys()
  const who = useWhoami()
  const team = who?.role === 'team' ? who : null
  const scope: Scope = {
    team,
    yours: team ? `the accounts of ${team.name} (${team.accounts.join(', ')})` : 'every account',
  }
  const loadFaults = () =>
    call<{ data: Fault[] }>('GET', '/__sandbox/faults')
      .then((answer) => setFaults(answer.data))
      .catch(() => setFaults([]))
  useEffect(() => {
    void loadFaults()
  }, [])
  const run: Run = async (title, body, action, doIt, done) => {
    if (!(await confirmAction(title, body, action))) return
    try {
      await doIt()
      setResult(done)
      reloadAll()
      void loadFaults()
    } catch (e) {
      setResult(`Failed: ${(e as Error).message}`)
    }
  }
  return (
    <div class="controls-page">
      {result ? (
        <p class="result" role="status">
          {result}
        </p>
      ) : null}
      <OutboxCard scope={scope} run={run} />
      <ResetCard scope={scope} run={run} />
      <OptOutsCard labels={accountLabels(keys)} />
      <section class="card" aria-labelledby="faults-title">
        <h2 id="faults-title">Faults</h2>
        <FaultForm scope={scope} run={run} accounts={[...new Set(keys.map((k) => k.account))]} armed={faults.length} />
        <FaultsTable faults={faults} />
      </section>
      <KeysCard keys={keys} error={keysError} />
    </div>
  )
}

function OutboxCard({ scope, run }: { scope: Scope; run: Run }) {
  return (
    <section class="card" aria-labelledby="outbox-title">
      <h2 id="outbox-title">Outbox</h2>
      <p>Clearing removes the captured messages of {scope.yours}.</p>
      <button
        type="button"
        class="danger"
        onClick={() =>
          run(
            'Clear the outbox?',
            `The captured messages of ${scope.yours} are deleted. This cannot be undone.`,
            'Clear outbox',
            () => call('DELETE', '/__sandbox/messages'),
            'Outbox cleared.',
          )
        }
      >
        Clear outbox
      </button>
    </section>
  )
}

function ResetCard({ scope: { team, yours }, run }: { scope: Scope; run: Run }) {
  const [scope, setScope] = useState<(typeof RESET_SCOPES)[number]>('all')
  const reset = () =>
    run(
      `Reset ${scope === 'all' ? (team ? 'your accounts' : 'the whole sandbox') : scope}?`,
      scope === 'all'
        ? team
          ? `Cleared for ${yours}: ${resetScopeText(true)}.`
          : `Cleared: ${resetScopeText()}.`
        : `Only the ${RESET_SCOPE_LABELS[scope]} go back to the seeded state.`,
      'Reset',
      () => call('POST', `/__sandbox/reset${scope === 'all' ? '' : `?scope=${scope}`}`, {}),
      `Reset (${scope}) done.`,
    )
  return (
    <section class="card" aria-labelledby="reset-title">
      <h2 id="reset-title">Reset</h2>
      <p>
        {team
          ? `Back to the seeded state, for ${yours}: ${resetScopeText(true)}, or one of them.`
          : `Back to the seeded state: all of it (${resetScopeText()}), or one part.`}
      </p>
      <div class="row-form">
        <label class="field">
          <span>Scope</span>
          <select value={scope} onChange={(e) => setScope(e.currentTarget.value as typeof scope)}>
            {(team ? TEAM_RESET_SCOPES : RESET_SCOPES).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="danger" onClick={reset}>
          Reset
        </button>
      </div>
    </section>
  )
}

const EMPTY_FAULT = {
  status: '500',
  code: '',
  path: '',
  method: '',
  times: '1',
  probability: '',
  delay_ms: '',
  account: '',
}
type FaultFields = typeof EMPTY_FAULT

/** The `POST /__sandbox/faults` body of the form's fields: the empty ones left out. */
function faultOf(form: FaultFields): Record<string, unknown> {
  const fault: Record<string, unknown> = { status: Number(form.status) }
  if (form.code) fault.code = form.code
  if (form.path) fault.path = form.path
  if (form.method) fault.method = form.method
  if (form.times) fault.times = Number(form.times)
  if (form.probability) fault.probability = Number(form.probability)
  if (form.delay_ms) fault.delay_ms = Number(form.delay_ms)
  if (form.account) fault.account = form.account
  return fault
}

function FaultForm({
  scope: { team },
  run,
  accounts,
  armed,
}: {
  scope: Scope
  run: Run
  accounts: string[]
  armed: number
}) {
  const [form, setForm] = useState(EMPTY_FAULT)
  const arm = (event: Event) => {
    event.preventDefault()
    const fault = faultOf(form)
    void run(
      'Arm this fault?',
      `Matching requests will answer ${fault.status}${fault.path ? ` on ${fault.path}` : ' on every path'}${fault.times ? `, ${fault.times} time(s)` : ' until cleared'}.`,
      'Arm fault',
      () => call('POST', '/__sandbox/faults', fault),
      'Fault armed.',
    )
  }
  const field = (name: keyof FaultFields, label: string, props: Record<string, unknown> = {}) => (
    <label class="field">
      <span>{label}</span>
      <input
        name={name}
        value={form[name]}
        onInput={(e) => setForm({ ...form, [name]: e.currentTarget.value })}
        {...props}
      />
    </label>
  )
  return (
    <form class="fault-form" onSubmit={arm}>
      {field('status', 'Status', { type: 'number', min: 400, max: 599, required: true })}
      {field('code', 'Code (optional)', { placeholder: 'internal_error' })}
      {field('path', 'Path (optional)', { placeholder: '/v1/sms/send' })}
      <MethodSelect value={form.method} onChange={(method) => setForm({ ...form, method })} />
      <AccountSelect
        team={team}
        accounts={accounts}
        value={form.account}
        onChange={(account) => setForm({ ...form, account })}
      />
      {field('times', 'Times (empty: until cleared)', { type: 'number', min: 1 })}
      {field('probability', 'Probability (0–1)', { type: 'number', min: 0, max: 1, step: 'any' })}
      {field('delay_ms', 'Delay (ms)', { type: 'number', min: 0 })}
      <FaultActions run={run} armed={armed} />
    </form>
  )
}

/** The fault's method: any, or one of the API's. */
function MethodSelect({ value, onChange }: { value: string; onChange: (method: string) => void }) {
  return (
    <label class="field">
      <span>Method</span>
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">any</option>
        {['GET', 'POST', 'PUT', 'DELETE'].map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
    </label>
  )
}

/** The form's buttons: arm the fault (submit), clear every armed one (after a confirmation). */
function FaultActions({ run, armed }: { run: Run; armed: number }) {
  return (
    <div class="form-actions">
      <button type="submit" class="primary">
        Arm fault
      </button>
      <button
        type="button"
        class="danger-outline"
        disabled={armed === 0}
        onClick={() =>
          run(
            'Clear every fault?',
            'Requests are answered normally again.',
            'Clear faults',
            () => call('DELETE', '/__sandbox/faults'),
            'Faults cleared.',
          )
        }
      >
        Clear faults
      </button>
    </div>
  )
}

/** The fault's account: any (the admin), a team's only account, or one of a team's several (required). */
function AccountSelect({
  team,
  accounts,
  value,
  onChange,
}: {
  team: Scope['team']
  accounts: string[]
  value: string
  onChange: (account: string) => void
}) {
  const several = team !== null && team.accounts.length > 1
  return (
    <label class="field">
      <span>Account</span>
      <select name="account" value={value} required={several} onChange={(e) => onChange(e.currentTarget.value)}>
        {several ? <option value="">choose one</option> : <option value="">{team ? team.accounts[0] : 'any'}</option>}
        {(team ? (several ? team.accounts : []) : accounts).map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
    </label>
  )
}

/** The armed faults, each with what is left of it (`remaining`: ∞ until cleared). */
function FaultsTable({ faults }: { faults: Fault[] }) {
  if (faults.length === 0) return <p class="muted">No fault armed.</p>
  return (
    <table class="params">
      <caption>Armed faults</caption>
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Code</th>
          <th scope="col">Method</th>
          <th scope="col">Path</th>
          <th scope="col">Account</th>
          <th scope="col">Times left</th>
        </tr>
      </thead>
      <tbody>
        {faults.map((f) => (
          <tr key={f.id}>
            <td>{f.status}</td>
            <td>{f.code ?? '—'}</td>
            <td>{f.method ?? 'any'}</td>
            <td>{f.path ?? 'any'}</td>
            <td>{f.account ?? 'any'}</td>
            <td>{f.remaining ?? '∞'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function KeysCard({ keys, error }: { keys: KeyUsage[]; error: string | null }) {
  return (
    <section class="card wide" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      {error ? <p class="error">{error}</p> : null}
      <table class="params">
        <caption class="visually-hidden">Keys and their rate-limit use in the last 60 seconds</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Plan</th>
            <th scope="col">Account</th>
            <th scope="col">Used / limit per minute</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.key}>
              <th scope="row">
                <code>{k.key}</code>
              </th>
              <td>{k.plan_name ?? k.plan}</td>
              <td>{k.account ?? '—'}</td>
              <td>
                <meter
                  min={0}
                  max={k.limit}
                  value={k.used}
                  aria-label={`${k.key}: ${k.used} of ${k.limit} requests used`}
                />{' '}
                {k.used} / {k.limit}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
