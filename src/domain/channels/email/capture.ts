import type { EmailSendRequest } from '../../../contract/messages.js'
import { nextTurn } from '../../event-loop.js'
import { findCodes, htmlToolsPending, linksAndImagesInHtml, renderEmail, renderEmailInTurns } from '../../extract.js'
import { defineDerived, LAZY_DERIVE_LIMIT, reviveDerived, underived, type Derived, type Deriver } from '../derived.js'
import { base, outcomeFor, stringWeight } from '../shared.js'
import { emailReading } from './reading.js'
import type { CaptureInputOf, ChannelDescriptor } from '../types.js'

/**
 * An email's text (its HTML rendered), links (hrefs and URLs in text), images (sources) and codes
 * (subject and text). Its links and images alone are the parse that `renderEmail` makes for them,
 * without html-to-text's layout of the text: a test that reads a magic link pays ~0.07 ms instead
 * of ~0.2 (and, first in a process, ~2 ms instead of ~10).
 */
const deriveEmail: Deriver<{ subject: string; html: string }> = Object.assign(
  ({ subject, html }: { subject: string; html: string }) => {
    const { text, links, images } = renderEmail(html)
    return { text, links, images, codes: findCodes(`${subject}\n${text}`) }
  },
  { links: ({ html }: { html: string }) => linksAndImagesInHtml(html) },
)

/**
 * HTML longer than this is derived ahead of its capture, in turns of the event loop of its own
 * (the tools' loading, the render, the codes): a 1 MiB email's ~30 ms of derivation no longer
 * holds every other request for its whole length (issue 36, R3).
 */
const AHEAD_LIMIT = 64 * 1024
const derivedAhead = new WeakMap<EmailSendRequest, Derived>()

async function deriveAhead(body: EmailSendRequest): Promise<void> {
  await htmlToolsPending()
  await nextTurn()
  const { text, links, images } = await renderEmailInTurns(body.html)
  await nextTurn()
  derivedAhead.set(body, { text, links, images, codes: findCodes(`${body.subject}\n${text}`) })
  await nextTurn()
}

/** Email: from, subject and HTML; text is the HTML rendered, links its hrefs, images its image sources. */
export const emailChannel: ChannelDescriptor<'email', EmailSendRequest> = {
  ...emailReading,
  // The text and links need html-to-text and htmlparser2: loaded by the first email, not by every sandbox.
  prepare: (body) => (body.html.length > AHEAD_LIMIT ? deriveAhead(body) : htmlToolsPending()),
  capture(sender, body, raw, retryAfter) {
    const outcome = outcomeFor(body.to, retryAfter)
    const { subject, html } = body
    const message = base(sender, 'email', body.to, raw) as Record<string, unknown>
    const email = { from: body.from ? { email: body.from.email, name: body.from.name ?? null } : null, subject, html }
    // Large HTML is derived now (and may have been ahead of the capture); short HTML on first read,
    // from the message's own `email` (a derivation per message, no closure over the request).
    if (html.length > LAZY_DERIVE_LIMIT)
      defineDerived(message, (e) => derivedAhead.get(body) ?? deriveEmail(e), email, true)
    else defineDerived(message, deriveEmail, email)
    message.email = email
    return { message, outcome } as unknown as CaptureInputOf<'email'>
  },
  // Underived (short HTML): the text and links estimated at the HTML's size each, not computed for it.
  weight: (m) =>
    stringWeight(m.email.html) +
    stringWeight(m.email.subject) +
    (underived(m)
      ? 2 * stringWeight(m.email.html)
      : stringWeight(m.text) + [...m.links, ...m.images].reduce((n, l) => n + l.length * 2, 0)),
  revive: (m) => reviveEmail(m),
}

/** An email read back from a store: its text, links, images and codes derived again on first read. */
export function reviveEmail<T extends Record<string, unknown>>(message: T): T {
  return reviveDerived(message, deriveEmail, message.email as { subject: string; html: string })
}
