import caniemail from 'caniemail/caniemail.json' with { type: 'json' }

/**
 * caniemail's data (the `caniemail` package's `caniemail.json`, docs/decisions/email-compatibility.md)
 * indexed once: every client id (`family.platform`), and each feature's latest support per client.
 */

export type Support = 'y' | 'a' | 'n'

export interface FeatureData {
  slug: string
  title: string
  url: string
  /** caniemail's general note on the feature, if any. */
  note: string | undefined
  /** Latest known support per client id; a client with no data or `u` (unknown) is absent. */
  support: Map<string, { support: Support; notes: string[] }>
}

interface RawFeature {
  slug: string
  title: string
  url: string
  notes: string | null
  notes_by_num: Record<string, string> | null
  stats: Record<string, Record<string, Record<string, string>>>
}

const raw = caniemail as unknown as {
  last_update_date: string
  nicenames: { family: Record<string, string>; platform: Record<string, string> }
  data: RawFeature[]
}

/** When caniemail's data was last updated (as the package ships it). */
export const CANIEMAIL_DATA_DATE: string = raw.last_update_date

const YEAR_LIKE = /^(19|20)\d\d(-\d\d)?$/

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number)
  const pb = b.split('.').map(Number)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (d !== 0 && !Number.isNaN(d)) return d
  }
  return 0
}

/**
 * The latest test of a client: the greatest date when every key is a date (`2019-02`, `2016`), the
 * greatest version when none is (`12.4`, `16.80`), else the last key (caniemail lists tests
 * oldest first; mixed keys are a year of a product then its version numbers).
 */
export function latestKey(keys: string[]): string | undefined {
  if (keys.length === 0) return undefined
  const years = keys.filter((key) => YEAR_LIKE.test(key))
  if (years.length === keys.length) return [...years].sort().at(-1)
  if (years.length === 0) return [...keys].sort(compareVersions).at(-1)
  return keys.at(-1)
}

function featureData(feature: RawFeature): FeatureData {
  const support: FeatureData['support'] = new Map()
  for (const [family, platforms] of Object.entries(feature.stats)) {
    for (const [platform, tests] of Object.entries(platforms)) {
      const key = latestKey(Object.keys(tests))
      const value = key === undefined ? undefined : tests[key]
      const state = value?.trim().charAt(0)
      if (state !== 'y' && state !== 'a' && state !== 'n') continue
      const notes = [...(value ?? '').matchAll(/#(\d+)/g)]
        .map((match) => feature.notes_by_num?.[match[1]!])
        .filter((note): note is string => Boolean(note))
      support.set(`${family}.${platform}`, { support: state, notes })
    }
  }
  return { slug: feature.slug, title: feature.title, url: feature.url, note: feature.notes ?? undefined, support }
}

let features: Map<string, FeatureData> | undefined

/** Every feature by slug (`css-display-flex`), indexed on first use. */
export function compatFeatures(): Map<string, FeatureData> {
  features ??= new Map(raw.data.map((feature) => [feature.slug, featureData(feature)]))
  return features
}

/** Every feature's raw title by slug, for the detection tables (compat-css, compat-html). */
export function featureTitles(): Array<[slug: string, title: string]> {
  return raw.data.map((feature) => [feature.slug, feature.title])
}

/** Every client id caniemail's data has (`family.platform`), in the data's order. */
export const KNOWN_EMAIL_CLIENTS: readonly string[] = (() => {
  const ids = new Set<string>()
  for (const feature of raw.data)
    for (const [family, platforms] of Object.entries(feature.stats))
      for (const platform of Object.keys(platforms)) ids.add(`${family}.${platform}`)
  return [...ids]
})()

/** A client's readable name: `Outlook (Windows)`, `Gmail (Desktop Webmail)`. */
export function clientName(id: string): string {
  const [family = id, platform = ''] = id.split('.')
  const familyName = raw.nicenames.family[family] ?? family
  const platformName = raw.nicenames.platform[platform] ?? platform
  return platformName ? `${familyName} (${platformName})` : familyName
}
