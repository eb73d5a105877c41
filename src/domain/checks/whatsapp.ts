import type { Check } from '../../contract/checks.js'
import type { WhatsappMessage } from '../../contract/captured-message.js'
import { finding } from './rules.js'

/**
 * WhatsApp checks (issue 35, item 4): what Meta's Cloud API refuses in a template send (error
 * 132018 for parameter text; 1024 characters of body) and what reads badly. The parameter rules
 * run with or without `--templates`; the filled body and its buttons only with them (without, the
 * template's text is unknown). Citations: docs/decisions/checks-whatsapp-rules.md.
 */

/** Meta's limit on a template's body, filled. */
export const WHATSAPP_BODY_LIMIT = 1024

function describe(name: string): string {
  return `Parameter "${name}"`
}

function parameterChecks(parameters: Record<string, string>): Check[] {
  const checks: Check[] = []
  for (const [name, value] of Object.entries(parameters)) {
    const where = { parameter: name }
    if (/[\r\n\u2028\u2029]/.test(value))
      checks.push(
        finding(
          'whatsapp.parameter-line-break',
          `${describe(name)} holds a line break: Meta refuses the send (error 132018, "Param text cannot have new-line/tab characters or more than 4 consecutive spaces"). Put line breaks in the template's own text, or join the lines with a space or " | ".`,
          where,
        ),
      )
    if (value.includes('\t'))
      checks.push(
        finding(
          'whatsapp.parameter-tab',
          `${describe(name)} holds a tab: Meta refuses the send (error 132018). Replace tabs with a space.`,
          where,
        ),
      )
    if (/ {5,}/.test(value))
      checks.push(
        finding(
          'whatsapp.parameter-spaces',
          `${describe(name)} holds more than four consecutive spaces: Meta refuses the send (error 132018). Collapse runs of spaces.`,
          where,
        ),
      )
  }
  return checks
}

/** Looks like a link a person would tap: a scheme, `www.`, or a host with a path. */
const URL_LIKE = /^\s*(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+|^\s*[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/\S*/i

function validHttps(url: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' && parsed.hostname !== '' && !/\s/.test(url)
  } catch {
    return false
  }
}

function renderedChecks(message: WhatsappMessage): Check[] {
  const rendered = message.whatsapp.rendered
  if (rendered === undefined) {
    // Without the template, a single value over the limit is enough to know the body is over it.
    return Object.entries(message.whatsapp.parameters)
      .filter(([, value]) => [...value].length > WHATSAPP_BODY_LIMIT)
      .map(([name, value]) =>
        finding(
          'whatsapp.body-too-long',
          `${describe(name)} alone is ${[...value].length} characters: the filled body is over Meta's ${WHATSAPP_BODY_LIMIT}-character limit, and Meta refuses the send. Shorten it.`,
          { parameter: name },
        ),
      )
  }
  const checks: Check[] = []
  const length = [...rendered.body].length
  if (length > WHATSAPP_BODY_LIMIT)
    checks.push(
      finding(
        'whatsapp.body-too-long',
        `The filled body is ${length} characters, over Meta's ${WHATSAPP_BODY_LIMIT}: Meta refuses the send. Shorten the parameters or the template.`,
      ),
    )
  for (const button of rendered.buttons) {
    if (button.url !== null && !validHttps(button.url))
      checks.push(
        finding(
          'whatsapp.button-url',
          `The button "${button.text}" links to ${JSON.stringify(button.url)} once filled, which is not a valid https URL: Meta refuses it or the button does not open. Check the parameter that fills it (a path, not a whole URL, when the template holds the host).`,
          { link: button.url },
        ),
      )
  }
  const buttonUrls = rendered.buttons.map((b) => b.url).filter((url): url is string => url !== null)
  for (const [name, value] of Object.entries(message.whatsapp.parameters)) {
    if (!URL_LIKE.test(value) || buttonUrls.some((url) => url.includes(value.trim()))) continue
    checks.push(
      finding(
        'whatsapp.parameter-url',
        `${describe(name)} looks like a URL (${JSON.stringify(value.slice(0, 80))}) but the template has no link there: it shows as text in the body, and links in parameters hurt the template's quality rating. Use a URL button.`,
        { parameter: name, link: value },
      ),
    )
  }
  return checks
}

/** Every WhatsApp check of a captured template message (an inbound reply has none). */
export function whatsappChecks(message: WhatsappMessage): Check[] {
  if (message.direction !== 'outbound') return []
  return [...parameterChecks(message.whatsapp.parameters), ...renderedChecks(message)]
}
