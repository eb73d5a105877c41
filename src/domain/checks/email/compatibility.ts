import type { Check, ClientSupport } from '../../../contract/checks.js'
import { sourceLocator } from '../source-location.js'
import { clientName, compatFeatures, KNOWN_EMAIL_CLIENTS, type FeatureData } from './compat-data.js'
import { scanHtml } from './compat-html.js'

/**
 * Client compatibility of an email's HTML against caniemail's data (issue 35;
 * docs/decisions/email-compatibility.md): one check per feature the email uses that some client
 * does not fully support, and a support percentage per client.
 */

export { CANIEMAIL_DATA_DATE, KNOWN_EMAIL_CLIENTS } from './compat-data.js'

/** The clients that count when `--email-clients` is not given: the families most mail is read in. */
export const DEFAULT_EMAIL_CLIENTS: readonly string[] = [
  'gmail.desktop-webmail',
  'gmail.ios',
  'gmail.android',
  'outlook.windows',
  'outlook.macos',
  'outlook.outlook-com',
  'outlook.ios',
  'outlook.android',
  'apple-mail.macos',
  'apple-mail.ios',
  'yahoo.desktop-webmail',
  'yahoo.ios',
  'yahoo.android',
  'samsung-email.android',
  'thunderbird.macos',
  'thunderbird.windows',
]

/**
 * `--email-clients`: a list (an array or one comma-separated string) of client ids
 * (`outlook.windows`), families (`outlook` or `outlook.*`: every platform of it), `default` or
 * `all`. Throws an Error naming the unknown entries and the valid ids.
 */
export function parseEmailClients(list: string | readonly string[]): string[] {
  const entries = (typeof list === 'string' ? list.split(',') : list).map((entry) => entry.trim()).filter(Boolean)
  const chosen = new Set<string>()
  const unknown: string[] = []
  for (const entry of entries) {
    const name = entry.toLowerCase()
    const family = name.replace(/\.\*$/, '')
    const matches =
      name === 'all' || name === '*'
        ? KNOWN_EMAIL_CLIENTS
        : name === 'default'
          ? DEFAULT_EMAIL_CLIENTS
          : KNOWN_EMAIL_CLIENTS.filter((id) => id === name || id.startsWith(`${family}.`))
    if (matches.length === 0) unknown.push(entry)
    for (const id of matches) chosen.add(id)
  }
  if (unknown.length > 0) {
    throw new Error(
      `Unknown email client${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Valid: a family (outlook, gmail…), "default", "all", or one of ${KNOWN_EMAIL_CLIENTS.join(', ')}.`,
    )
  }
  return [...chosen]
}

/** What to do instead, for the features emails most often trip on. */
const ADVICE: Array<[RegExp, string]> = [
  [/^css-(display-(flex|grid)|flex-|gap|grid-|justify-content|align-items)/, 'use a table layout'],
  [/^css-(position|left-right|inset|float|z-index)/, 'lay it out with tables instead of positioning'],
  [/^(html-style|css-selector-|css-pseudo-class-|css-nesting)/, 'inline the styles that matter (style attributes)'],
  [/^css-at-media/, 'make the email read well without it (mobile-first tables)'],
  [/^(css-background-image|css-background$|css-\w+-gradient|html-background)/, 'set a background-color fallback'],
  [/^css-(margin|max-width|width|height)/, 'use table cell padding and width attributes'],
  [/^css-(variables|function-|unit-calc)/, 'write plain values'],
  [/^css-at-(font-face|import)|^css-sytem-ui/, 'list web-safe fallback fonts'],
  [/^image-(svg|webp|avif|heif|apng|tiff|bmp|ico|mp4)/, 'use PNG, JPG or GIF'],
  [/^html-(form|input|button|select|textarea|video|audio|dialog|object)/, 'link to a web page instead'],
]

function advice(slug: string): string {
  return ADVICE.find(([pattern]) => pattern.test(slug))?.[1] ?? "see caniemail's notes"
}

function names(ids: string[], max = 4): string {
  const shown = ids.slice(0, max).map(clientName).join(', ')
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown
}

function message(feature: FeatureData, unsupported: string[], partial: string[], counted: ReadonlySet<string>): string {
  const countedNone = unsupported.filter((id) => counted.has(id))
  const countedPartial = partial.filter((id) => counted.has(id))
  const parts: string[] = []
  if (countedNone.length > 0) parts.push(`is not supported by ${names(countedNone)}`)
  if (countedPartial.length > 0)
    parts.push(`${parts.length ? 'and only partly by' : 'is only partly supported by'} ${names(countedPartial)}`)
  const others = unsupported.length + partial.length - countedNone.length - countedPartial.length
  if (parts.length === 0)
    parts.push(`is not fully supported by ${names([...unsupported, ...partial])} (not among the clients counted)`)
  else if (others > 0) parts.push(`(and ${others} client${others > 1 ? 's' : ''} not counted)`)
  return `${feature.title} ${parts.join(' ')} — ${advice(feature.slug)}`
}

function featureCheck(
  feature: FeatureData,
  offset: number,
  counted: ReadonlySet<string>,
  locate: ReturnType<typeof sourceLocator>,
): Check | undefined {
  const unsupported: string[] = []
  const partial: string[] = []
  const notes = new Set<string>()
  for (const [client, { support, notes: clientNotes }] of feature.support) {
    if (support === 'y') continue
    ;(support === 'n' ? unsupported : partial).push(client)
    for (const note of clientNotes) notes.add(`${clientName(client)}: ${note}`)
  }
  if (unsupported.length + partial.length === 0) return undefined
  if (feature.note) notes.add(feature.note)
  return {
    id: `compat.${feature.slug}`,
    severity: unsupported.some((id) => counted.has(id)) ? 'warning' : 'info',
    category: 'compatibility',
    message: message(feature, unsupported, partial, counted),
    location: locate(offset),
    clients: [...unsupported, ...partial],
    notes: [...notes],
    url: feature.url,
  }
}

/** Per client: the share of the found features it supports (partial counts half); 100 without data. */
function clientSupport(found: FeatureData[], counted: ReadonlySet<string>): ClientSupport[] {
  return KNOWN_EMAIL_CLIENTS.map((client) => {
    let known = 0
    let points = 0
    for (const feature of found) {
      const support = feature.support.get(client)?.support
      if (!support) continue
      known++
      points += support === 'y' ? 1 : support === 'a' ? 0.5 : 0
    }
    return {
      client,
      supported: known === 0 ? 100 : Math.round((points / known) * 1000) / 10,
      counted: counted.has(client),
    }
  })
}

/**
 * Client compatibility of an email's HTML against caniemail's data (issue 35).
 *
 * @param html the email's HTML as sent
 * @param clients the client ids that count for the score (`--email-clients`); all when empty
 */
export function compatibilityChecks(
  html: string,
  clients: readonly string[],
): { checks: Check[]; clients: ClientSupport[] } {
  const counted: ReadonlySet<string> = new Set(clients.length > 0 ? clients : KNOWN_EMAIL_CLIENTS)
  const features = compatFeatures()
  const locate = sourceLocator(html)
  const used: Array<[FeatureData, number]> = []
  for (const [slug, offset] of scanHtml(html)) {
    const feature = features.get(slug)
    if (feature) used.push([feature, offset])
  }
  used.sort((a, b) => a[1] - b[1])
  const checks = used
    .map(([feature, offset]) => featureCheck(feature, offset, counted, locate))
    .filter((check): check is Check => check !== undefined)
  checks.sort((a, b) => Number(a.severity === 'info') - Number(b.severity === 'info'))
  return {
    checks,
    clients: clientSupport(
      used.map(([feature]) => feature),
      counted,
    ),
  }
}
