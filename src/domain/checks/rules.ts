import type { Check, CheckCategory, CheckSeverity } from '../../contract/checks.js'
import { MAX_PARSE_DEPTH } from '../bounded-parse.js'

/**
 * The rules this folder applies, one entry each: a rule's id names every finding of it, with the
 * same severity and category (docs/checks.md lists them). The email engines (compatibility, spam,
 * live links) name their own findings (`compat.…`, `spam.…`, `links.live-…`).
 */
export const RULES = {
  'links.javascript': { severity: 'error', category: 'links', about: 'a link runs `javascript:`' },
  'links.data': { severity: 'error', category: 'links', about: 'a link opens a `data:` URL' },
  'links.vbscript': { severity: 'error', category: 'links', about: 'a link runs `vbscript:`' },
  'links.http': { severity: 'warning', category: 'links', about: 'a link or image over plain `http:`' },
  'links.empty': { severity: 'warning', category: 'links', about: 'a link without a target (no, empty or `#` href)' },
  'links.relative': {
    severity: 'warning',
    category: 'links',
    about: 'a relative link: an email has no page to resolve it against',
  },
  'links.text-mismatch': {
    severity: 'warning',
    category: 'links',
    about: 'the visible text names another host than the target',
  },
  'links.private-address': { severity: 'info', category: 'links', about: 'a link into localhost or a private address' },
  'images.missing-alt': { severity: 'warning', category: 'accessibility', about: 'an image without `alt`' },
  'size.gmail-clip': { severity: 'warning', category: 'size', about: 'HTML over 102 × 1024 bytes: Gmail clips it' },
  'size.nesting-depth': {
    severity: 'warning',
    category: 'size',
    about: `elements nested over ${MAX_PARSE_DEPTH.toLocaleString('en-US')} deep: the rest is not checked`,
  },
  'accessibility.html-lang': { severity: 'warning', category: 'accessibility', about: '`<html>` without `lang`' },
  'accessibility.document-lang': {
    severity: 'info',
    category: 'accessibility',
    about: 'no `<html lang>` at all (an HTML fragment)',
  },
  'accessibility.layout-table': {
    severity: 'warning',
    category: 'accessibility',
    about: 'a layout table without `role="presentation"`',
  },
  'accessibility.link-text': {
    severity: 'warning',
    category: 'accessibility',
    about: 'link text that says nothing out of context ("click here")',
  },
  'spam.not-configured': {
    severity: 'info',
    category: 'spam',
    about: 'no spam check: `--spamassassin HOST:PORT` enables one',
  },
  'sms.ucs2-character': {
    severity: 'warning',
    category: 'encoding',
    about: 'a character outside GSM-7 switches the SMS to UCS-2',
  },
  'sms.segments': { severity: 'info', category: 'encoding', about: 'more than one segment: each is billed' },
  'sms.alphanumeric-sender': {
    severity: 'error',
    category: 'sender',
    about: 'an alphanumeric sender to a +1 (US, Canada) number',
  },
  'sms.url-shortener': {
    severity: 'warning',
    category: 'links',
    about: 'a public URL shortener: US carriers filter them',
  },
  'sms.http-link': { severity: 'warning', category: 'links', about: 'a link over plain `http:`' },
  'whatsapp.parameter-line-break': {
    severity: 'error',
    category: 'template',
    about: 'a parameter with a line break: Meta rejects it',
  },
  'whatsapp.parameter-tab': {
    severity: 'error',
    category: 'template',
    about: 'a parameter with a tab: Meta rejects it',
  },
  'whatsapp.parameter-spaces': {
    severity: 'error',
    category: 'template',
    about: 'a parameter with more than four consecutive spaces: Meta rejects it',
  },
  'whatsapp.body-too-long': {
    severity: 'error',
    category: 'template',
    about: "the filled body is over Meta's 1024 characters",
  },
  'whatsapp.button-url': {
    severity: 'error',
    category: 'template',
    about: 'a button URL that is not a valid https URL once filled',
  },
  'whatsapp.parameter-url': {
    severity: 'warning',
    category: 'template',
    about: 'a parameter that looks like a URL where the template has no link',
  },
} as const satisfies Record<string, { severity: CheckSeverity; category: CheckCategory; about: string }>

export type RuleId = keyof typeof RULES

/** One finding of a rule: its id, severity and category from {@link RULES}, and what is wrong and how to fix it. */
export function finding(
  id: RuleId,
  message: string,
  where: Omit<Check, 'id' | 'severity' | 'category' | 'message'> = {},
): Check {
  const rule = RULES[id]
  return { id, severity: rule.severity, category: rule.category, message, ...where }
}
