import { DEFAULT_LIMITS, PLANS, type Plan } from '../contract/constants.js'

export { DEFAULT_LIMITS, PLANS, type Plan }

/** Display names, as the reference writes them. */
export const PLAN_NAMES: Record<Plan, string> = { starter: 'Starter', pro: 'Pro', enterprise: 'Enterprise' }

/** The keys in force when none are configured: each its own account. */
export const DEFAULT_API_KEYS: Record<string, Plan> = {
  test_starter: 'starter',
  test_pro: 'pro',
  test_enterprise: 'enterprise',
}

/** One configured API key. */
export interface ApiKeyConfig {
  key: string
  plan: Plan
  /** Keys with the same account share subscribers and messages; default: {@link defaultAccountFor} the key. */
  account: string
}

let processSalt: string | undefined

/**
 * This process's salt for account ids: 128 random bits, made on first use (Web Crypto: Node and
 * browsers alike). Without it the id was an unsalted 48-bit hash of the key, and a human-chosen
 * key was recovered from an id offline in seconds (issue 27, N12).
 */
export function processAccountSalt(): string {
  if (processSalt === undefined) {
    const bytes = new Uint8Array(16)
    globalThis.crypto.getRandomValues(bytes)
    processSalt = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  }
  return processSalt
}

/**
 * The account of a key configured without one: `acct_` and a salted hash of the key. Not the key
 * itself, because account names appear in the journal, the outbox and the UI, where keys are
 * only ever shown masked. The salt is the process's unless given (the sandbox option
 * `accountSalt`, which a persistent store keeps so that a key stays one account across restarts).
 */
export function defaultAccountFor(key: string, salt: string = processAccountSalt()): string {
  return `acct_${fnv48(`${salt}\u0000${key}`)}`
}

/**
 * The unsalted id older versions gave a key's account: the name its seeded subscribers are drawn
 * from (`--seed`), so that seeding stays the same across runs and versions whatever the salt.
 */
export function seedNameFor(key: string): string {
  return `acct_${fnv48(key)}`
}

/** Two FNV-1a 32-bit passes with different offsets, 48 bits in hex: stable, no crypto dependency. */
function fnv48(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193) >>> 0
    b = Math.imul(b ^ c, 0x01000193) >>> 0
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0').slice(0, 4)}`
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value)
}

/** Keys are opaque but must be something a header can carry without surprises. */
const KEY_PATTERN = /^[A-Za-z0-9_\-.]{1,128}$/

/**
 * Parses `KEY:PLAN[:ACCOUNT]` (the CLI's `--api-key` and each entry of `SENDBOX_API_KEYS`).
 * Throws an Error with a one-line message on a bad spec.
 *
 * @example
 * parseKeySpec('k_live:pro:acme') // { key: 'k_live', plan: 'pro', account: 'acme' }
 */
export function parseKeySpec(spec: string, salt?: string): ApiKeyConfig {
  const parts = spec.trim().split(':')
  if (parts.length < 2 || parts.length > 3) {
    throw new Error(
      `bad API key spec "${spec}": expected KEY:PLAN or KEY:PLAN:ACCOUNT, with PLAN one of ${PLANS.join(', ')}`,
    )
  }
  const [key, rawPlan, account] = parts
  const plan = rawPlan.toLowerCase()
  if (!KEY_PATTERN.test(key)) {
    throw new Error(`bad API key spec "${spec}": the key must be 1 to 128 letters, digits, "_", "-" or "."`)
  }
  if (!isPlan(plan)) {
    throw new Error(`bad API key spec "${spec}": unknown plan "${rawPlan}"; use one of ${PLANS.join(', ')}`)
  }
  if (account !== undefined && !KEY_PATTERN.test(account)) {
    throw new Error(`bad API key spec "${spec}": the account must be 1 to 128 letters, digits, "_", "-" or "."`)
  }
  return { key, plan, account: account ?? defaultAccountFor(key, salt) }
}

/** Normalizes the in-process `apiKeys` option or a list of specs into key configs. */
export function resolveApiKeys(
  apiKeys: Record<string, Plan | `${Plan}:${string}`> | readonly string[] | undefined,
  salt?: string,
): ApiKeyConfig[] {
  if (apiKeys === undefined) {
    return Object.entries(DEFAULT_API_KEYS).map(([key, plan]) => ({ key, plan, account: defaultAccountFor(key, salt) }))
  }
  const specs = Array.isArray(apiKeys) ? apiKeys : Object.entries(apiKeys).map(([key, value]) => `${key}:${value}`)
  const configs = specs.map((spec) => parseKeySpec(spec, salt))
  const seen = new Set<string>()
  for (const { key } of configs) {
    if (seen.has(key)) throw new Error(`API key "${key}" is configured twice`)
    seen.add(key)
  }
  if (configs.length === 0) throw new Error('no API keys configured: give at least one KEY:PLAN')
  return configs
}

/**
 * How the banner and the terminal UI name a key: the documented default `test_` keys in full
 * (they are public, and QA needs to copy them), every configured key masked.
 */
export function displayKey(key: string): string {
  return Object.hasOwn(DEFAULT_API_KEYS, key) ? key : maskKey(key)
}

/**
 * Shows a key without revealing it: at most 4 of its characters and never more than a third of
 * them, half from each end (`test_starter` → `te…er`, `test_pro` → `t…o`, a 5-character key →
 * `k…`, 2 characters or fewer → `…`).
 */
export function maskKey(key: string): string {
  const shown = Math.min(4, Math.floor(key.length / 3))
  const head = Math.ceil(shown / 2)
  const tail = shown - head
  return `${key.slice(0, head)}…${tail > 0 ? key.slice(-tail) : ''}`
}
