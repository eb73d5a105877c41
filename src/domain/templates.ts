/**
 * WhatsApp templates, as the business registers them with Meta: a name, a language, a body with
 * `{{name}}` or `{{1}}` placeholders, and optionally a header, a footer and buttons. When
 * templates are configured (`--templates FILE`, option `templates`), every WhatsApp send is
 * checked against them after the field rules, and a captured message reads as the recipient
 * reads it (see docs/decisions/conversations.md).
 */
import { ApiError } from './errors.js'

/** A button of a template: a quick reply (`text`) or a link (`text` and `url`, which may hold placeholders). */
export interface TemplateButton {
  text: string
  url?: string
}

/** One template, in one language. */
export interface WhatsappTemplate {
  name: string
  language: string
  body: string
  header?: string
  footer?: string
  buttons?: Array<string | TemplateButton>
}

/** The templates file: `{ "templates": [ ... ] }`. */
export interface TemplatesFile {
  templates: WhatsappTemplate[]
}

/** A filled template: what the recipient reads. */
export interface RenderedTemplate {
  header: string | null
  body: string
  footer: string | null
  buttons: Array<{ text: string; url: string | null }>
}

/** A template file that cannot be used; the message is one line naming the file, the template and the field. */
export class TemplatesFileError extends Error {}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g
const NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|[1-9][0-9]*)$/

/** The placeholder names of one text, in order; throws a message for an unknown syntax. */
export function placeholdersOf(text: string): string[] {
  const names: string[] = []
  const rest = text.replace(PLACEHOLDER, (whole, inner: string) => {
    const name = inner.trim()
    if (!NAME.test(name))
      throw new Error(`has an unknown placeholder ${JSON.stringify(whole)}: use {{name}} (letters, digits, _) or {{1}}`)
    names.push(name)
    return ''
  })
  const stray = /\{\{|\}\}/.exec(rest)
  if (stray)
    throw new Error(`has an unclosed or unknown placeholder near ${JSON.stringify(stray[0])}: use {{name}} or {{1}}`)
  return names
}

function fill(text: string, parameters: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (_whole, inner: string) => parameters[inner.trim()] ?? '')
}

/** One template checked and compiled: its placeholders known. */
interface Compiled {
  template: WhatsappTemplate
  placeholders: string[]
}

const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/
const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/

function fieldError(where: string, field: string, problem: string): TemplatesFileError {
  return new TemplatesFileError(`${where}: \`${field}\` ${problem}`)
}

/** Checks one entry of the file; returns it compiled or throws a one-line {@link TemplatesFileError}. */
function compileEntry(entry: unknown, index: number, source: string): Compiled {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new TemplatesFileError(`${source}: templates[${index}] must be an object with name, language and body`)
  const t = entry as Record<string, unknown>
  const label =
    typeof t.name === 'string'
      ? `template "${t.name}"${typeof t.language === 'string' ? ` (${t.language})` : ''}`
      : `templates[${index}]`
  const where = `${source}: ${label}`
  for (const key of Object.keys(t)) {
    if (!['name', 'language', 'body', 'header', 'footer', 'buttons'].includes(key))
      throw fieldError(where, key, 'is not a template field; fields: name, language, body, header, footer, buttons')
  }
  if (typeof t.name !== 'string' || !TEMPLATE_NAME.test(t.name))
    throw fieldError(where, 'name', 'must be a string of lowercase letters, digits or underscores, like "order_update"')
  if (typeof t.language !== 'string' || !LANGUAGE.test(t.language))
    throw fieldError(where, 'language', 'must be a language code string like "en" or "en_US"')
  if (typeof t.body !== 'string' || t.body === '') throw fieldError(where, 'body', 'must be a non-empty string')
  const placeholders: string[] = []
  const scan = (field: string, value: unknown) => {
    if (typeof value !== 'string') throw fieldError(where, field, 'must be a string')
    try {
      placeholders.push(...placeholdersOf(value))
    } catch (error) {
      throw fieldError(where, field, (error as Error).message)
    }
  }
  for (const field of ['header', 'body', 'footer'] as const) if (t[field] !== undefined) scan(field, t[field])
  if (t.buttons !== undefined) {
    if (!Array.isArray(t.buttons))
      throw fieldError(where, 'buttons', 'must be a list of button texts or { text, url } objects')
    t.buttons.forEach((button: unknown, i) => {
      if (typeof button === 'string') return scan(`buttons[${i}]`, button)
      if (typeof button !== 'object' || button === null)
        throw fieldError(where, `buttons[${i}]`, 'must be a string or { text, url }')
      const b = button as Record<string, unknown>
      scan(`buttons[${i}].text`, b.text)
      if (b.url !== undefined) {
        scan(`buttons[${i}].url`, b.url)
        if (!isHttpsTemplateUrl(b.url as string))
          throw fieldError(
            where,
            `buttons[${i}].url`,
            'must be an https:// URL (placeholders allowed after the host), like "https://shop.example/orders/{{order}}"',
          )
      }
    })
  }
  return { template: t as unknown as WhatsappTemplate, placeholders: [...new Set(placeholders)] }
}

/**
 * Whether a button's URL is https once its placeholders are filled (issue 36, R17): any other
 * scheme (`javascript:`, `data:`, `http:`) would become a link in the web inbox.
 */
function isHttpsTemplateUrl(url: string): boolean {
  if (!/^https:\/\/[^/{}\s]/i.test(url)) return false
  try {
    return new URL(url.replace(/\{\{[^}]*\}\}/g, 'x')).protocol === 'https:'
  } catch {
    return false
  }
}

/** How many names on each side of a request's place in the sorted indexes are compared for "did you mean". */
const SUGGESTION_NEIGHBOURS = 12
/** Characters of each name the suggestion compares. */
const SUGGESTION_CHARS = 64

/** The names around `key`'s place in `sorted` (at most `count` each side). */
function neighbours(sorted: readonly string[], key: string, count: number): string[] {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (sorted[middle] < key) low = middle + 1
    else high = middle
  }
  return sorted.slice(Math.max(0, low - count), low + count)
}

const reversed = (text: string) => [...text].reverse().join('')

/** Edit distance, for "did you mean" (two rows of a typed array: no allocation per cell). */
function distance(a: string, b: string): number {
  let previous = new Uint16Array(b.length + 1)
  let current = new Uint16Array(b.length + 1)
  for (let j = 0; j <= b.length; j++) previous[j] = j
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    const ai = a.charCodeAt(i - 1)
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ai === b.charCodeAt(j - 1) ? 0 : 1))
    ;[previous, current] = [current, previous]
  }
  return previous[b.length]
}

/**
 * The configured templates: checks a send against them and fills them. Built from the file's
 * parsed JSON by {@link TemplateBook.from}, which refuses a bad file with one line.
 */
export class TemplateBook {
  private readonly byName = new Map<string, Map<string, Compiled>>()
  /** The names sorted, and each name reversed and sorted: the "did you mean" index (R9). */
  private readonly sortedNames: string[]
  private readonly sortedReversed: string[]

  private constructor(entries: Compiled[], source: string) {
    for (const entry of entries) {
      const { name, language } = entry.template
      const languages = this.byName.get(name) ?? new Map<string, Compiled>()
      if (languages.has(language))
        throw new TemplatesFileError(
          `${source}: template "${name}" (${language}): \`language\` repeats "${language}"; each name+language appears once`,
        )
      languages.set(language, entry)
      this.byName.set(name, languages)
    }
    this.sortedNames = [...this.byName.keys()].sort()
    this.sortedReversed = this.sortedNames.map(reversed).sort()
  }

  /**
   * The three known names closest to an unknown one. Bounded whatever the registry (issue 36, R9:
   * every name was compared, 12.9 s with 1,000 long names): only the names beside it in the
   * sorted index and in the index of reversed names (a typo near the end, or near the start) are
   * compared, each on its first {@link SUGGESTION_CHARS} characters, each once.
   */
  private closest(name: string): string[] {
    const candidates = new Set([
      ...neighbours(this.sortedNames, name, SUGGESTION_NEIGHBOURS),
      ...neighbours(this.sortedReversed, reversed(name), SUGGESTION_NEIGHBOURS).map(reversed),
    ])
    const wanted = name.slice(0, SUGGESTION_CHARS)
    return [...candidates]
      .map((known) => ({ known, d: distance(wanted, known.slice(0, SUGGESTION_CHARS)) }))
      .sort((a, b) => a.d - b.d || a.known.localeCompare(b.known))
      .slice(0, 3)
      .map((c) => c.known)
  }

  /** Checks a parsed templates file (`{ templates: [...] }`, or the list alone). `source` names it in errors. */
  static from(data: unknown, source = 'templates'): TemplateBook {
    const list = Array.isArray(data) ? data : (data as { templates?: unknown } | null)?.templates
    if (!Array.isArray(list))
      throw new TemplatesFileError(`${source}: must hold { "templates": [ { "name", "language", "body" }, ... ] }`)
    return new TemplateBook(
      list.map((entry, i) => compileEntry(entry, i, source)),
      source,
    )
  }

  /** Every template, each with its placeholders, in file order. */
  list(): Array<WhatsappTemplate & { placeholders: string[] }> {
    return [...this.byName.values()].flatMap((languages) =>
      [...languages.values()].map((c) => ({ ...c.template, placeholders: c.placeholders })),
    )
  }

  /** Throws the API's error for a send that the template would refuse; returns the compiled template. */
  private check(name: string, language: string, parameters: Record<string, string>): Compiled {
    const languages = this.byName.get(name)
    if (!languages) {
      const closest = this.closest(name)
      throw new ApiError(
        'invalid_parameter',
        `\`template\` "${name}" is not a configured template. Closest known: ${closest.join(', ')}.`,
        'template',
      )
    }
    const compiled = languages.get(language)
    if (!compiled)
      throw new ApiError(
        'invalid_parameter',
        `Template "${name}" has no language "${language}". Its languages: ${[...languages.keys()].join(', ')}.`,
        'language',
      )
    for (const placeholder of compiled.placeholders) {
      if (!Object.hasOwn(parameters, placeholder)) {
        throw new ApiError(
          'missing_parameter',
          `Template "${name}" (${language}) needs \`parameters.${placeholder}\`; it has ${compiled.placeholders.length} parameter${compiled.placeholders.length === 1 ? '' : 's'}: ${compiled.placeholders.join(', ')}.`,
          `parameters.${placeholder}`,
        )
      }
    }
    for (const given of Object.keys(parameters)) {
      if (!compiled.placeholders.includes(given)) {
        throw new ApiError(
          'unknown_parameter',
          `Template "${name}" (${language}) has no parameter \`${given}\`; its parameters: ${compiled.placeholders.join(', ') || 'none'}.`,
          `parameters.${given}`,
        )
      }
    }
    return compiled
  }

  /** Checks a send (throwing the API's error) and fills its template. */
  render(name: string, language: string, parameters: Record<string, string>): RenderedTemplate {
    const { template } = this.check(name, language, parameters)
    return {
      header: template.header === undefined ? null : fill(template.header, parameters),
      body: fill(template.body, parameters),
      footer: template.footer === undefined ? null : fill(template.footer, parameters),
      buttons: (template.buttons ?? []).map((b) =>
        typeof b === 'string'
          ? { text: fill(b, parameters), url: null }
          : { text: fill(b.text, parameters), url: b.url === undefined ? null : fill(b.url, parameters) },
      ),
    }
  }
}

/** A filled template as lines: header, body, footer, then one `[button] url` line per button. */
export function renderedText(rendered: RenderedTemplate): string {
  const buttons = rendered.buttons.map((b) => (b.url ? `[${b.text}] ${b.url}` : `[${b.text}]`))
  return [rendered.header, rendered.body, rendered.footer, ...buttons]
    .filter((line): line is string => line !== null && line !== '')
    .join('\n')
}

/** The `templates` option: a book, or a parsed templates file (`{ templates }` or the list). The CLI reads `--templates FILE` into a book. */
export type TemplatesOption = TemplateBook | TemplatesFile | WhatsappTemplate[]

/** Resolves the `templates` option (throws a {@link TemplatesFileError} for bad templates). */
export function templateBookOf(option: TemplatesOption | undefined): TemplateBook | undefined {
  if (option === undefined) return undefined
  if (option instanceof TemplateBook) return option
  return TemplateBook.from(option, 'templates option')
}
