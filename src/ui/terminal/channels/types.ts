import type { Channel, MessageOf } from '../../../contract/captured-message.js'
import type { Colour } from '../format.js'
import type { StyledLine } from '../page.js'

/** A channel's badge: full and short label (narrow terminals) and its colours. */
export interface Badge {
  label: string
  short: string
  background: Colour
  foreground: Colour
}

/**
 * How the terminal UI shows one channel's message page. `TERMINAL_VIEWS` is a record over every
 * channel: a new channel fails to compile until it has a view here.
 */
export interface TerminalChannelView<C extends Channel> {
  badge: Badge
  /** The channel's own header fields: sender, recipient, subject, length, template… */
  header(message: MessageOf<C>, width: number): StyledLine[]
  /** Sections between the header and the body, when the text (not the source) is shown. */
  sections?(message: MessageOf<C>, width: number): StyledLine[]
  /** The body section's title: what the text is, and what `v` switches to. */
  bodyTitle(message: MessageOf<C>, source: boolean): string
  /** What `v` shows instead of the text: the email's HTML, else the request as sent. */
  source(message: MessageOf<C>): string
  /** The message has HTML a browser can preview (`o` opens it; the page shows its URL). */
  htmlPreview?: true
}
