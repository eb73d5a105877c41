/**
 * How every channel's message reads: the list line, the sender, what `q` searches, the list's
 * summary. One module for the server, the terminal UI and the web inbox (which bundles it: it
 * imports the contract's constants and the channels' readings, nothing else at run time), so the
 * three cannot read a message differently.
 */
import {
  CHANNELS,
  SUMMARY_LINK_LENGTH,
  SUMMARY_LINKS,
  SUMMARY_TEXT_LENGTH,
  type Channel,
} from '../../contract/constants.js'
import type { CapturedMessage, CapturedMessageSummary } from '../../contract/captured-message.js'
import { emailReading } from './email/reading.js'
import { smsReading } from './sms/reading.js'
import type { ChannelReading, Readable, ReadableOf } from './types.js'
import { whatsappReading } from './whatsapp/reading.js'

/** One reading per channel. A channel missing here is a compile error. */
export const CHANNEL_READINGS: { [C in Channel]: ChannelReading<C> } = {
  email: emailReading,
  sms: smsReading,
  whatsapp: whatsappReading,
}

/** Each channel's short human name (its reading's `label`). */
export const CHANNEL_LABELS = Object.fromEntries(CHANNELS.map((c) => [c, CHANNEL_READINGS[c].label])) as Record<
  Channel,
  string
>

/** The reading of a message's channel. */
export function readingOf<C extends Channel>(message: ReadableOf<C>): ChannelReading<C> {
  return CHANNEL_READINGS[message.channel as C] as unknown as ChannelReading<C>
}

/** One line for a list: subject, SMS lines joined with ⏎, or template with parameters; a reply reads `↩ …`. */
export function summaryOf(message: Readable): string {
  const line = readingOf(message).summary(message as never)
  return message.direction === 'inbound' ? `↩ ${line}` : line
}

/** The sender as shown and filtered (`Name <address>`, SMS sender id), or null. */
export function senderOf(message: Readable): string | null {
  return readingOf(message).from(message as never)
}

/**
 * Everything `q` searches, lower-cased once per message and kept: recipient, sender, subject,
 * text, template and its parameters.
 */
const searchTexts = new WeakMap<Readable, string>()
export function searchTextOf(message: Readable): string {
  let text = searchTexts.get(message)
  if (text === undefined) {
    text = searchTextFor(message)
    searchTexts.set(message, text)
  }
  return text
}

/**
 * What reading `message`'s search text costs, in characters, without making it: its length once
 * made, else the text's length and a margin for the other fields. A wait's budget is counted with
 * it when the message is offered, so the (possibly megabyte) text is made inside a budgeted slice,
 * not in the turn that publishes the message.
 */
export function searchCostOf(message: Readable): number {
  return searchTexts.get(message)?.length ?? message.text.length + 1024
}

/** `next` (a lifecycle step's copy of `message`) searches as `message` does: its search text is not made again (issue 36, R3). */
export function keepSearchText(message: Readable, next: Readable): void {
  const text = searchTexts.get(message)
  if (text !== undefined) searchTexts.set(next, text)
}

/** The text {@link searchTextOf} keeps, made anew: for a caller that keeps it itself (the outbox's search joins). */
export function searchTextFor(message: Readable): string {
  const r = readingOf(message)
  const m = message as never
  return [message.to, r.from(m) ?? '', r.subject(m) ?? '', message.text, r.template(m) ?? '', ...r.searchExtras(m)]
    .join('\n')
    .toLowerCase()
}

const CUT_MARK = /^…\[\+[0-9]+ chars\]$/
/** A link as a list carries it: cut at {@link SUMMARY_LINK_LENGTH} and marked; one already cut stays as it is. */
function listedLink(url: string): string {
  if (url.length <= SUMMARY_LINK_LENGTH || CUT_MARK.test(url.slice(SUMMARY_LINK_LENGTH))) return url
  return `${url.slice(0, SUMMARY_LINK_LENGTH)}…[+${url.length - SUMMARY_LINK_LENGTH} chars]`
}

/**
 * Links as a list carries them: at most {@link SUMMARY_LINKS}, each at most
 * {@link SUMMARY_LINK_LENGTH} characters (a hostile email's 100 links of 400 KiB each made one
 * page of the list 44 MB; issue 27, N11). The message by id keeps them whole.
 */
function listed(urls: readonly string[]): string[] {
  const kept = urls.length > SUMMARY_LINKS ? urls.slice(0, SUMMARY_LINKS) : urls
  return kept.some((url) => url.length > SUMMARY_LINK_LENGTH) ? kept.map(listedLink) : [...kept]
}

/** A message as the list shows it: no request body, no HTML, the text and links bounded. */
export function summarize(message: CapturedMessage): CapturedMessageSummary {
  // Without the request and the channel's whole part; the reading puts back the part a list carries.
  const {
    request: _request,
    [message.channel]: _part,
    text,
    links,
    images,
    ...rest
  } = message as CapturedMessage & Record<string, unknown>
  void _request
  void _part
  const cut = text.length > SUMMARY_TEXT_LENGTH
  return {
    ...rest,
    ...readingOf(message).summaryPart(message as never),
    text: cut ? text.slice(0, SUMMARY_TEXT_LENGTH) : text,
    text_truncated: cut,
    links: listed(links),
    images: listed(images ?? []),
    links_total: links.length,
  } as CapturedMessageSummary
}

/**
 * Channels as prose names them mid-sentence: a label in title case is a common noun (`email`),
 * an acronym or a brand keeps its case (`SMS`, `WhatsApp`), joined with commas and "and". Text
 * that lists the channels says this, so a new channel is in it without an edit.
 *
 * @example
 * channelList(['sms', 'whatsapp']) // 'SMS and WhatsApp'
 */
export function channelList(channels: readonly Channel[] = CHANNELS): string {
  const nouns = channels.map((channel) => {
    const label = CHANNEL_READINGS[channel].label
    return /^[A-Z][a-z]+$/.test(label) ? label.toLowerCase() : label
  })
  return nouns.length > 1 ? `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}` : (nouns[0] ?? '')
}
